// Waits for something a test started in the background (a scan, a watcher, a worker) by polling, with a clear timeout.

/** Polls `probe` every 25 ms until it returns a value (not undefined), and returns it; fails after `ms`. */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, ms = 5000, what = 'a value'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Polls `probe` until it is true; fails after `ms`. */
export async function waitUntil(probe: () => boolean | Promise<boolean>, ms = 5000, what = 'a condition'): Promise<void> {
  await waitFor(async () => ((await probe()) ? true : undefined), ms, what);
}
