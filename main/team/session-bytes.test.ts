// splitSessionBytes and sessionRowFromBytes: the head, chunks and hashes cut from session.json's bytes are those cut from its text, byte for byte, with text that is not ASCII and chunks cut in characters.
import { expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { sessionJsonText, splitSessionBytes, splitSessionJson } from './session-chunks.ts';
import { sessionRow, sessionRowFromBytes } from './session-row.ts';

/** Messages with two- and three-byte characters, emoji (surrogate pairs, four bytes) and a NUL escape: bytes and characters differ. */
const session = (n: number): Session =>
  makeSession('bytes', {
    messages: Array.from({ length: n }, (_, i) =>
      textMessage(i % 2 ? 'assistant' : 'user', i === 3 ? 'tricky\n    },\n    {\n  ] \u0000' : `héllo ${i} 日本語 😀 ${'wörds '.repeat(30 + i)}`),
    ),
  });

const asText = (split: ReturnType<typeof splitSessionBytes>) =>
  split && { head: split.head.toString('utf8'), messages: split.messages.map((c) => ({ ...c, body: c.body.toString('utf8') })) };

it('cuts the same head and chunks, with the same hashes, from the bytes as from the text', () => {
  for (const chars of [300, 1000, 64 * 1024]) {
    const json = sessionJsonText(session(40));
    const fromText = splitSessionJson(json, 40, chars);
    expect(fromText?.messages.length).toBeGreaterThan(chars === 300 ? 20 : 0);
    expect(asText(splitSessionBytes(json, Buffer.from(json, 'utf8'), 40, chars))).toEqual(fromText);
  }
  const empty = sessionJsonText(makeSession('empty'));
  expect(asText(splitSessionBytes(empty, Buffer.from(empty), 0))).toEqual(splitSessionJson(empty, 0));
});

it('gives null where the text cannot be cut, or where the bytes are not valid UTF-8', () => {
  const s = session(4);
  expect(splitSessionBytes(JSON.stringify(s), Buffer.from(JSON.stringify(s)), 4)).toBeNull();
  const json = sessionJsonText(s);
  expect(splitSessionBytes(json, Buffer.from(json), 5)).toBeNull();
  const bad = Buffer.concat([Buffer.from(json), Buffer.from([0xff])]);
  expect(splitSessionBytes(bad.toString('utf8'), bad, 4)).toBeNull();
});

it('builds the row sessionRow builds, its bodies as bytes, and copies them out of the bytes it was given', () => {
  const json = sessionJsonText(session(40));
  const bytes = Buffer.from(json, 'utf8');
  const row = sessionRowFromBytes(json, bytes, 'hash', bytes.length, 500);
  bytes.fill(0);
  const { head, messages, ...rest } = sessionRow(json, 'hash', Buffer.byteLength(json), 500);
  const { head: headBytes, messages: chunkBytes, ...restBytes } = row;
  expect(restBytes).toEqual(rest);
  expect(headBytes.toString()).toBe(head);
  expect(chunkBytes.map((c) => ({ ...c, body: c.body.toString() }))).toEqual(messages);
  // Laid out otherwise (not as Share writes it), the row is sessionRow's as it is.
  const compact = JSON.stringify(session(6));
  expect(sessionRowFromBytes(compact, Buffer.from(compact), 'h', 1, 500)).toEqual(sessionRow(compact, 'h', 1, 500));
});
