// session.json as the team store keeps it: a head and message chunks that read back byte for byte, and a grown session that keeps all its chunks but the last.
import { expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { assembleSession, messageChunks, sessionHead, sessionJsonText, splitSessionJson } from './session-chunks.ts';

const session = (n: number): Session =>
  makeSession('chunks', {
    messages: Array.from({ length: n }, (_, i) =>
      // A message whose text looks like the layout between two messages: escaped in JSON, it cannot be taken for one.
      textMessage(i % 2 ? 'assistant' : 'user', i === 3 ? 'tricky\n    },\n    {\n  ]' : `message ${i} ${'words '.repeat(40)}`),
    ),
  });

it('cuts session.json as Share writes it into a head and chunks that read back to the same text', () => {
  const s = session(40);
  const json = sessionJsonText(s);
  const split = splitSessionJson(json, s.messages.length, 1000);
  expect(split).not.toBeNull();
  expect(split?.messages.length).toBeGreaterThan(5);
  expect(sessionJsonText(assembleSession(split?.head ?? '', split?.messages.map((c) => c.body) ?? []))).toBe(json);
  // The same as cutting the parsed session, but for how each chunk is written.
  const parsed = messageChunks(s.messages, 1000).flatMap((c) => JSON.parse(c.body) as unknown[]);
  expect(parsed).toEqual(split?.messages.flatMap((c) => JSON.parse(c.body) as unknown[]));
  expect(JSON.parse(sessionHead(s))).toEqual(JSON.parse(split?.head ?? ''));
});

it('keeps every chunk of a grown session but the last, whose hash changes, and adds new ones', () => {
  const before = session(40);
  const after = { ...before, messages: [...before.messages, ...session(50).messages.slice(40)] };
  const a = splitSessionJson(sessionJsonText(before), 40, 1000)?.messages ?? [];
  const b = splitSessionJson(sessionJsonText(after), 50, 1000)?.messages ?? [];
  expect(b.length).toBeGreaterThan(a.length);
  expect(b.slice(0, a.length - 1).map((c) => c.sha256)).toEqual(a.slice(0, -1).map((c) => c.sha256));
});

it('says so for a text laid out otherwise, or holding another count of messages, and handles a session without messages', () => {
  const s = session(4);
  expect(splitSessionJson(JSON.stringify(s), 4)).toBeNull();
  expect(splitSessionJson(sessionJsonText(s), 5)).toBeNull();
  const empty = makeSession('empty');
  const split = splitSessionJson(sessionJsonText(empty), 0);
  expect(split?.messages).toEqual([]);
  expect(sessionJsonText(assembleSession(split?.head ?? '', []))).toBe(sessionJsonText(empty));
});
