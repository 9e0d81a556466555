// `[` / `]`: the user's prompts are found among the rows, and the next or previous one is picked from where the reader is.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../shared/session.ts';
import { planPromptJump, promptRows, promptToward } from './prompt-jumps.ts';
import { buildTranscript } from './transcript.ts';

const msg = (id: string, role: Message['role'], text: string, extra: Partial<Message> = {}): Message =>
  ({ id, role, parts: [{ type: 'text', text }], timestamp: null, ...extra }) as unknown as Message;

describe('promptRows', () => {
  it('lists the rows the user typed, not tool results or the assistant', () => {
    const rows = buildTranscript([
      msg('1', 'user', 'First question'),
      {
        id: '2',
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Running it' },
          { type: 'tool_call', callId: 'c1', name: 'bash', input: { command: 'ls' } },
        ],
        timestamp: null,
      } as unknown as Message,
      { id: '3', role: 'user', parts: [{ type: 'tool_result', callId: 'c1', output: 'ok', isError: false }], timestamp: null } as unknown as Message,
      msg('4', 'user', 'Second question'),
      msg('5', 'assistant', 'Another answer'),
    ]).rows;
    const prompts = promptRows(rows);
    expect(prompts.map((i) => rows[i]?.key)).toEqual(['1', '4']);
  });
});

describe('promptToward', () => {
  const starts = new Map([
    [0, 0],
    [4, 400],
    [9, 1200],
  ]);
  const startOf = (row: number) => starts.get(row) ?? 0;
  const prompts = [0, 4, 9];

  it('goes to the next prompt below the reading position, and to none past the last', () => {
    expect(promptToward(prompts, startOf, 0, 1)).toBe(4);
    expect(promptToward(prompts, startOf, 400, 1)).toBe(9);
    expect(promptToward(prompts, startOf, 1200, 1)).toBeNull();
  });

  it('goes to the previous prompt above, skipping the one already at the top', () => {
    expect(promptToward(prompts, startOf, 1200, -1)).toBe(4);
    expect(promptToward(prompts, startOf, 700, -1)).toBe(4);
    expect(promptToward(prompts, startOf, 0, -1)).toBeNull();
  });
});

describe('planPromptJump', () => {
  const starts = new Map([
    [0, 0],
    [4, 400],
  ]);
  const startOf = (row: number) => starts.get(row) ?? 0;
  const prompts = [0, 4];

  it('scrolls to a loaded prompt when there is one that way', () => {
    expect(planPromptJump(prompts, startOf, 0, 1, true)).toEqual({ kind: 'row', row: 4 });
    expect(planPromptJump(prompts, startOf, 400, -1, true)).toEqual({ kind: 'row', row: 0 });
  });

  it('asks for the next window when ] passes the last loaded prompt of a session with more messages', () => {
    expect(planPromptJump(prompts, startOf, 400, 1, true)).toEqual({ kind: 'load' });
    expect(planPromptJump(prompts, startOf, 400, 1, false)).toBeNull();
  });

  it('never fetches for [: the loaded messages always start at the first one', () => {
    expect(planPromptJump(prompts, startOf, 0, -1, true)).toBeNull();
  });
});
