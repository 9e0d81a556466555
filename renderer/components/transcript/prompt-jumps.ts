// `[` and `]` in a long session: the rows that hold the user's own prompts, and which one is before or after the reading position.
import type { Row } from './transcript.ts';

/** Rows of the main conversation that the user typed: not tool results, meta records, or sub-agent prompts. */
export function promptRows(rows: readonly Row[]): number[] {
  const out: number[] = [];
  rows.forEach((r, i) => {
    if (r.kind === 'message' && r.message.role === 'user' && r.depth === 0 && !r.secondary && !r.resultsOnly) out.push(i);
  });
  return out;
}

/**
 * The prompt row to jump to from the reading position (`top`, in the list's pixels), or null when there is none that
 * way. `startOf(row)` is where a row begins; a prompt that starts within `slack` px of the top counts as the current one.
 */
export function promptToward(prompts: readonly number[], startOf: (row: number) => number, top: number, direction: 1 | -1, slack = 4): number | null {
  if (direction > 0) {
    for (const row of prompts) if (startOf(row) > top + slack) return row;
    return null;
  }
  for (let i = prompts.length - 1; i >= 0; i--) {
    const row = prompts[i] as number;
    if (startOf(row) < top - slack) return row;
  }
  return null;
}

/** What a `[` or `]` does: scroll to a prompt row, fetch the next window of messages to look in, or nothing. */
export type PromptJump = { kind: 'row'; row: number } | { kind: 'load' } | null;

/**
 * Like `promptToward`, for a transcript that arrives in windows: `]` past the last loaded prompt asks for the next
 * window while the session has more messages. `[` never needs one: the loaded messages always begin at the first.
 */
export function planPromptJump(prompts: readonly number[], startOf: (row: number) => number, top: number, direction: 1 | -1, moreToLoad: boolean): PromptJump {
  const row = promptToward(prompts, startOf, top, direction);
  if (row !== null) return { kind: 'row', row };
  return direction > 0 && moreToLoad ? { kind: 'load' } : null;
}
