// Index text: every searchable part of a session lands in a column, one body segment per message.
import { describe, expect, it } from 'vitest';
import { extractIndexText, MESSAGE_SEPARATOR, packIndexText, TOOL_OUTPUT_CAP, unpackIndexText } from './index-text.ts';
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

describe('packIndexText', () => {
  it('gives back the same four parts after crossing threads as one buffer, whatever the characters', () => {
    const text = { title: 'Übersicht 🚀', body: `naïve${MESSAGE_SEPARATOR}日本語 \ud800 lone`, meta: '/home/dév/app', idents: 'parseVizierDocument toolu_01' };
    const packed = packIndexText(text);
    expect(packed.packed).toBeInstanceOf(Uint8Array);
    // A lone surrogate cannot be UTF-8: it comes back as U+FFFD without shifting the parts after it.
    expect(unpackIndexText(packed)).toEqual({ ...text, body: text.body.replace('\ud800', '\ufffd') });
  });
});
