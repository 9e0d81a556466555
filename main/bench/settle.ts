// Waits until the bench's own process is quiet (its threads included), so what it measures next does not share a core with it.

/**
 * Resolves once this process used under a tenth of a core over one `windowMs` window, or after `maxWaitMs`:
 * the index's writer after a scan, or the collector after a large output was parsed, would slow whatever runs next.
 */
export async function settle(windowMs: number, maxWaitMs: number): Promise<void> {
  for (let waited = 0; waited < maxWaitMs; waited += windowMs) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const used = process.cpuUsage(before);
    if (used.user + used.system < windowMs * 100) return;
  }
}
