// Claude Code records built by hand for the reader's tests: JSONL lines, user and assistant records, a parse context.
import type { JsonLine } from '../jsonl.ts';
import type { ClaudeCodeContext } from './claude-code.ts';

export const DAY = 24 * 3600_000;
export function ctx(over: Partial<ClaudeCodeContext> = {}): ClaudeCodeContext {
  return {
    path: '/home/u/.claude/projects/-home-u-x/s1.jsonl',
    size: 1,
    mtimeMs: 1_000_000,
    warnings: [],
    now: 1_000_000 + DAY,
    layout: null,
    meta: null,
    children: [],
    extraFiles: [],
    ...over,
  };
}

export const lines = (...values: unknown[]): JsonLine[] => values.map((value, i) => ({ value, line: i + 1 }));
export const user = (uuid: string, content: unknown, more: object = {}) => ({
  type: 'user',
  uuid,
  timestamp: '2026-01-01T10:00:00Z',
  cwd: '/w',
  message: { role: 'user', content },
  ...more,
});
export const assistant = (uuid: string, id: string | undefined, content: unknown[], more: object = {}, usage?: object) => ({
  type: 'assistant',
  uuid,
  timestamp: '2026-01-01T10:00:05Z',
  message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content, usage },
  ...more,
});
