// Recognises a Pi-format session (Pi, oh-my-pi, OpenClaw) from its first line: the `session` header.
import type { Head } from '../head.ts';

/** `{"type":"session","id":...,"timestamp":...}` with a `cwd` or a `version`, as Pi writes its first line. */
export function isPiHeader(record: Record<string, unknown> | undefined): boolean {
  if (record?.type !== 'session' || typeof record.id !== 'string' || typeof record.timestamp !== 'string') return false;
  return typeof record.cwd === 'string' || typeof record.version === 'number';
}

/** The header is the first record, after oh-my-pi's rewritable `{"type":"title"}` slot when there is one. */
export function recognizesPiHeader(head: Head): boolean {
  const [first, second] = head.records(2);
  return isPiHeader(first?.type === 'title' ? second : first);
}
