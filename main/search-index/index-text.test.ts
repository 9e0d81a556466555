// Index text: every searchable part of a session lands in a column, one body segment per message.
import { describe, expect, it } from 'vitest';
import { BODY_CAP, extractIndexText, extractPackedIndexText, MESSAGE_SEPARATOR, TOOL_OUTPUT_CAP, unpackIndexText } from './index-text.ts';
import { makeSession, textMessage } from './test-sessions.ts';

describe('extractIndexText', () => {
  const session = makeSession('s1', {
    title: 'Refactor the parser',
    messages: [
      textMessage('user', 'Please fix parseVizierDocument'),
      textMessage('assistant', 'Reading the file', [
        { type: 'tool_call', callId: 'toolu_01ABCdef', name: 'Read', input: { file_path: '/src/vizier/parse.ts' } },
      ]),
      {
        ...textMessage('tool', ''),
        parts: [{ type: 'tool_result', callId: 'toolu_01ABCdef', output: `export function x() {}${'z'.repeat(TOOL_OUTPUT_CAP * 2)}`, isError: false }],
      },
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

describe('extractIndexText on awkward text', () => {
  it('ends an identifier at any non-ASCII character, as it ends at a space', () => {
    const session = makeSession('s2', { messages: [textMessage('user', 'Try été_config_v2, «parseThing» and /tmp/x/ÿfile.ts — naïve_var.')] });
    const idents = extractIndexText(session).idents.split(' ');
    expect(idents).toEqual(expect.arrayContaining(['_config_v2', 'parseThing', '/tmp/x', 'file.ts', 've_var']));
    expect(idents.filter((t) => [...t].some((c) => c.charCodeAt(0) > 127))).toEqual([]);
  });

  it('keeps a message holding the separator character as one segment', () => {
    const session = makeSession('s3', { messages: [textMessage('user', `left${MESSAGE_SEPARATOR}right`), textMessage('assistant', 'ok')] });
    expect(extractIndexText(session).body.split(MESSAGE_SEPARATOR)).toEqual(['left right', 'ok']);
  });

  it('caps the body at BODY_CAP characters, separators counted, cutting the message that crosses it', () => {
    const half = BODY_CAP / 2;
    const session = makeSession('s4', {
      messages: [textMessage('user', 'a'.repeat(half)), textMessage('assistant', 'b'.repeat(half)), textMessage('user', 'never indexed')],
    });
    const body = extractIndexText(session).body;
    expect(body.length).toBe(BODY_CAP);
    expect(body.split(MESSAGE_SEPARATOR).map((m) => m.length)).toEqual([half, half - 1]);
  });
});

describe('extractPackedIndexText', () => {
  it('gives back the same four parts after crossing threads as one buffer, whatever the characters', () => {
    const session = makeSession('s6', {
      title: 'Übersicht 🚀',
      project: { path: '/home/dév/app', name: 'app', branch: null, headCommit: null },
      messages: [textMessage('user', 'naïve'), textMessage('assistant', '日本語 \ud800 lone handle_event')],
    });
    const packed = extractPackedIndexText(session);
    expect(packed.packed).toBeInstanceOf(Uint8Array);
    // A lone surrogate cannot be UTF-8: it comes back as U+FFFD without shifting the parts after it.
    const text = unpackIndexText(packed);
    expect([text.title, text.body]).toEqual(['Übersicht 🚀', `naïve${MESSAGE_SEPARATOR}日本語 \ufffd lone handle_event`]);
    expect(text.idents.split(' ')).toContain('handle_event');
    expect(text.meta.split('\n')).toContain('/home/dév/app');
  });
});
