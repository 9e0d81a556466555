// Index text: every searchable part of a session lands in a column, one body segment per message.
import { describe, expect, it } from 'vitest';
import {
  BODY_CAP,
  extractIndexText,
  extractPackedIndexText,
  identsOf,
  MESSAGE_SEPARATOR,
  packedParts,
  TOOL_OUTPUT_CAP,
  unpackIndexText,
} from './index-text.ts';
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

  it('caps the stored body at BODY_CAP characters, separators counted, cutting the message that crosses it', () => {
    const half = BODY_CAP / 2;
    const session = makeSession('s4', {
      messages: [textMessage('user', 'a'.repeat(half)), textMessage('assistant', 'b'.repeat(half)), textMessage('user', 'still indexed')],
    });
    const text = extractIndexText(session);
    expect(text.body.length).toBe(BODY_CAP);
    expect(text.body.split(MESSAGE_SEPARATOR).map((m) => m.length)).toEqual([half, half - 1]);
    // What the cap cut (one 'b' and the last message) is indexed all the same, from the start of the word it cut
    // (up to 100 characters back, for a "word" of half a million), each word once.
    expect(text.more).toBe(`${'b'.repeat(101)} still indexed`);
  });
});

describe('extractIndexText: every word is indexed once, whatever the caps keep for snippets', () => {
  it('indexes the rest of a long tool output and a long tool input, cut at a word boundary', () => {
    const long = `${'x'.repeat(TOOL_OUTPUT_CAP - 3)} pangolin tail`;
    const session = makeSession('s7', {
      messages: [
        textMessage('assistant', 'writing', [
          { type: 'tool_call', callId: 't1', name: 'Write', input: { content: `${'y '.repeat(TOOL_OUTPUT_CAP)} aardvark` } },
        ]),
        { ...textMessage('tool', ''), parts: [{ type: 'tool_result', callId: 't1', output: long, isError: false }] },
      ],
    });
    const text = extractIndexText(session);
    expect(text.body).not.toContain('aardvark');
    expect(text.body).not.toContain('pangolin tail');
    expect(text.more.split(' ')).toEqual(expect.arrayContaining(['aardvark', 'pangolin', 'tail']));
  });

  it("indexes the model's provider and parameters, where the system prompt came from, and the files an operation staged", () => {
    const session = makeSession('s8', {
      model: { provider: 'openrouter', name: 'gpt-5', parameters: { reasoningEffort: 'painstaking' } },
      systemPrompt: { path: '/etc/agents/reviewer.md', hash: null, text: null },
      operations: [
        {
          id: 'op1',
          type: 'gate_accept',
          name: 'accept',
          timestamp: null,
          endedAt: null,
          status: 'ok',
          latencyMs: null,
          detail: null,
          vcs: {
            staged: { A: ['migrations/0007_users.sql'], M: [], D: [], R: [{ from: 'old_name.rs', to: 'new_name.rs' }] },
            appliedSha: null,
            restoredSha: null,
          },
          usage: null,
          cost: null,
          parentId: null,
          childSessionKey: null,
          origin: null,
        },
      ],
    });
    const text = extractIndexText(session);
    expect(text.meta.split('\n')).toContain('openrouter');
    expect(text.more.split(' ')).toEqual(expect.arrayContaining(['painstaking', 'reviewer', 'migrations', '0007', 'users', 'old', 'name', 'rs']));
  });

  it('indexes what is not stored as its distinct words, so a huge session’s catch-up stays small', () => {
    const output = `${'alpha beta '.repeat(500_000)}gamma`;
    const session = makeSession('s9', { messages: [{ ...textMessage('tool', ''), parts: [{ type: 'tool_result', callId: 't9', output, isError: false }] }] });
    expect(extractIndexText(session).more.split(' ').sort()).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('indexes a tool payload once: what repeats the call or its output is left out, what is new (an edited file) is in', () => {
    const original = 'export function parse() {}\nconst quetzal = 1;';
    const listing = '     1→line one\n     2→line two';
    const session = makeSession('s8', {
      messages: [
        textMessage('assistant', 'editing', [
          { type: 'tool_call', callId: 'e1', name: 'Edit', input: { file_path: '/src/a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' } },
        ]),
        {
          ...textMessage('tool', ''),
          parts: [{ type: 'tool_result', callId: 'e1', output: 'The file /src/a.ts has been updated.', isError: false }],
          annotations: { toolUseResult: { filePath: '/src/a.ts', oldString: 'const a = 1;', newString: 'const a = 2;', originalFile: original } },
        },
        {
          ...textMessage('tool', ''),
          parts: [{ type: 'tool_result', callId: 'r1', output: listing, isError: false }],
          annotations: { toolUseResult: { type: 'text', file: { filePath: '/src/b.ts', content: 'line one\nline two', numLines: 2 } } },
        },
        {
          ...textMessage('tool', ''),
          parts: [{ type: 'tool_result', callId: 'b1', output: 'total 8', isError: false }],
          annotations: { toolUseResult: { stdout: 'total 8', stderr: 'warning: ocelot', interrupted: false } },
        },
      ],
      extra: { summaries: ['An earlier conversation about the kinkajou'] },
    });
    const more = extractIndexText(session).more.split(' ');
    for (const kept of ['export', 'parse', 'quetzal', 'warning', 'ocelot', 'kinkajou', 'b', 'ts']) expect(more, kept).toContain(kept);
    // Words only the repeats hold are left out.
    for (const repeated of ['one', 'two', 'total', '8']) expect(more, repeated).not.toContain(repeated);
  });
});

describe('extractPackedIndexText', () => {
  it('gives back the same five parts after crossing threads as one buffer, whatever the characters', () => {
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
    expect(text.meta.split('\n')).toContain('/home/dév/app');
    // The identifiers are left to the writer, which finds the same ones in the stored bytes.
    expect(text.idents).toBe('');
    const parts = packedParts(packed);
    const found = new TextDecoder().decode(identsOf(parts.title, [parts.body.subarray(0, 9), parts.body.subarray(9)], parts.meta));
    expect(found).toBe(extractIndexText(session).idents);
    expect(found.split(' ')).toContain('handle_event');
  });
});
