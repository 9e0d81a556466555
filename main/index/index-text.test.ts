// Index text: every searchable part of a session lands in a column, one body segment per message.
import { describe, expect, it } from 'vitest';
import { extractIndexText, MESSAGE_SEPARATOR, TOOL_OUTPUT_CAP } from './index-text.ts';
import { makeSession, textMessage } from './test-sessions.ts';

describe('extractIndexText', () => {
  const session = makeSession('s1', {
    title: 'Refactor the parser',
    messages: [
      textMessage('user', 'Please fix parseVizierDocument'),
      textMessage('assistant', 'Reading the file', [
        { type: 'tool_call', callId: 'toolu_01ABCdef', name: 'Read', input: { file_path: '/src/vizier/parse.ts' } },
      ]),
      { ...textMessage('tool', ''), parts: [{ type: 'tool_result', callId: 'toolu_01ABCdef', output: `export function x() {}${'z'.repeat(TOOL_OUTPUT_CAP * 2)}`, isError: false }] },
    ],
    summary: { overview: 'Parser refactor', decisions: ['keep zod'], outcomes: [], openItems: [], tags: ['parser'] },
    outcome: { status: 'accepted', summary: 'Merged', commitSha: 'abc1234' },
  });
  const text = extractIndexText(session);

  it('keeps one body segment per message, in order', () => {
    const segments = text.body.split(MESSAGE_SEPARATOR);
    expect(segments).toHaveLength(3);
    expect(segments[0]).toContain('parseVizierDocument');
    expect(segments[1]).toContain('Read');
    expect(segments[1]).toContain('/src/vizier/parse.ts');
  });

  it('caps long tool outputs', () => {
    expect(text.body.split(MESSAGE_SEPARATOR)[2]?.length).toBeLessThan(TOOL_OUTPUT_CAP + 100);
  });

  it('puts project, summary, outcome and ids in the metadata column', () => {
    for (const part of ['/home/dev/s1', 'Parser refactor', 'keep zod', 'Merged', 'abc1234', 's1']) expect(text.meta).toContain(part);
  });

  it('collects identifiers and paths for substring search, not plain words', () => {
    const idents = text.idents.split(' ');
    expect(idents).toEqual(expect.arrayContaining(['parseVizierDocument', 'toolu_01ABCdef', '/src/vizier/parse.ts']));
    expect(idents).not.toContain('Please');
  });
});
