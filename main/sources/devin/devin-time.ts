// Devin's times (epoch seconds: created_at, last_activity_at, message_nodes.created_at), and row pointers.
/** ISO-8601 from epoch seconds (milliseconds written by mistake are read as such); null when absent or not a time. */
export function devinTime(value: unknown): string | null {
  const n = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) return null;
  const date = new Date(n > 10_000_000_000 ? n : n * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A JSON pointer token (RFC 6901) for a row key in `/rows/<table>/<key>`, the raw view's address of a store row. */
export function pointerToken(text: string): string {
  return text.replaceAll('~', '~0').replaceAll('/', '~1');
}
