// Codex rollout records built by hand for the reader's tests: JSONL lines, session_meta, events, response items, token totals, a parse context.
import type { DocumentContext } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';

export const HOUR = 60 * 60 * 1000;

/** A rollout's parse context: its path under a Codex home, nothing else known. */
export const ctx: DocumentContext = {
  path: '/h/.codex/sessions/2026/01/02/rollout-2026-01-02T03-04-05-0190aaaa-0000-7000-8000-000000000001.jsonl',
  size: 1,
  mtimeMs: 0,
  warnings: [],
};
export const lines = (...values: unknown[]): JsonLine[] => values.map((value, i) => ({ value, line: i + 1 }));
export const meta = (extra: Record<string, unknown> = {}) => ({
  timestamp: '2026-01-02T03:04:05.000Z',
  type: 'session_meta',
  payload: { id: '0190aaaa-0000-7000-8000-000000000001', cwd: '/w/app', ...extra },
});
export const event = (payload: Record<string, unknown>, ts = '2026-01-02T03:05:00.000Z') => ({ timestamp: ts, type: 'event_msg', payload });
export const item = (payload: Record<string, unknown>, ts = '2026-01-02T03:05:00.000Z') => ({ timestamp: ts, type: 'response_item', payload });
export const total = (input: number, cached: number, output: number, reasoning: number) =>
  event({
    type: 'token_count',
    info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning } },
  });
