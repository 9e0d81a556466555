// Recognises Kimi files by their first records: a kimi-cli context (`_system_prompt`, `_checkpoint`, `_usage` roles) or a Kimi Code journal.
import type { Head } from '../head.ts';

const CONTEXT_MARKERS = new Set(['_system_prompt', '_checkpoint', '_usage']);

/** kimi-cli's context.jsonl: records by `role`, with the roles only kimi-cli writes (a leading underscore). */
export function isKimiContext(records: readonly Record<string, unknown>[]): boolean {
  return records.some((r) => typeof r.role === 'string' && CONTEXT_MARKERS.has(r.role) && r.type === undefined);
}

/** Kimi Code's journal: a `metadata` line with a protocol version, then dotted ops (`config.update`, `turn.prompt`, ...). */
export function isKimiJournal(records: readonly Record<string, unknown>[]): boolean {
  const [first, ...rest] = records;
  if (first?.type !== 'metadata' || typeof first.protocol_version !== 'string') return false;
  return rest.some((r) => typeof r.type === 'string' && /^[a-z_]+\.[a-z_.]+$/.test(r.type) && typeof r.time === 'number');
}

export function recognizesKimi(head: Head): boolean {
  const records = head.records();
  return isKimiContext(records) || isKimiJournal(records);
}
