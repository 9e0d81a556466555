// The team store's search text knows where each message begins in its chunks (in code points, as PostgreSQL counts), so a hit can open at its message.
import { expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { CHUNK_CHARS, codePoints, teamText, type TextChunk } from './team-text.ts';

const chunksOf = (session: Session, weight: 'A' | 'B' | 'C') => teamText(session).chunks.filter((c) => c.weight === weight);

/** The chunk's text from a start (an offset in code points) on, as PostgreSQL's substr would give it. */
const from = (chunk: TextChunk, start: number) => Array.from(chunk.body).slice(start).join('');

it('records where each prompt and reply begins in its chunk, and which message it is', () => {
  const session = makeSession('starts', {
    messages: [
      textMessage('user', 'first prompt about ledgers'),
      textMessage('assistant', 'a reply 🦘 with a kangaroo before the next message'),
      textMessage('user', 'second prompt 🦘🦘 mentions quokka'),
      textMessage('assistant', 'the reply that says wombat'),
    ],
  });
  const [prompts] = chunksOf(session, 'B');
  expect(prompts?.messages).toEqual([0, 2]);
  expect(prompts?.starts[0]).toBe(0);
  expect(from(prompts as TextChunk, prompts?.starts[1] as number)).toMatch(/^second prompt/);
  const [rest] = chunksOf(session, 'C');
  // Replies, then the session's project and paths, which are no message's.
  expect(rest?.messages.slice(0, 2)).toEqual([1, 3]);
  expect(rest?.messages.slice(2).every((m) => m === null)).toBe(true);
  // The kangaroo is two UTF-16 units but one character: the next start counts it once.
  expect(rest?.starts[1]).toBe(codePoints('a reply 🦘 with a kangaroo before the next message') + 1);
  expect(from(rest as TextChunk, rest?.starts[1] as number)).toMatch(/^the reply that says wombat/);
  // The title's chunk is no message's.
  expect(chunksOf(session, 'A')[0]?.starts).toEqual([]);
});

it('starts a chunk that goes on with a long message at 0, with that message', () => {
  const long = `${'word '.repeat(CHUNK_CHARS / 5)}and then the end of the long one`;
  const session = makeSession('long', { messages: [textMessage('user', 'short'), textMessage('user', long), textMessage('user', 'after it')] });
  const chunks = chunksOf(session, 'B');
  // 'short' and the long one do not fit together: the long one begins its own chunks.
  expect(chunks.length).toBeGreaterThan(2);
  expect(chunks[0]?.messages).toEqual([0]);
  expect(chunks[1]?.starts).toEqual([0]);
  expect(chunks[1]?.messages).toEqual([1]);
  const tail = chunks[chunks.length - 1] as TextChunk;
  expect(tail.starts[0]).toBe(0);
  expect(tail.messages[0]).toBe(1);
  expect(tail.messages[tail.messages.length - 1]).toBe(2);
  expect(from(tail, tail.starts[tail.starts.length - 1] as number)).toBe('after it');
});

it('hashes where messages begin as well as the text: the same words cut into other messages are a changed chunk', () => {
  const one = makeSession('moved', { messages: [textMessage('user', 'alpha beta\ngamma')] });
  const two = makeSession('moved', { messages: [textMessage('user', 'alpha beta'), textMessage('user', 'gamma')] });
  const [a] = chunksOf(one, 'B');
  const [b] = chunksOf(two, 'B');
  expect(a?.body).toBe(b?.body);
  expect(a?.sha256).not.toBe(b?.sha256);
});

it('counts code points as PostgreSQL does: a surrogate pair once, a lone surrogate once', () => {
  expect(codePoints('abc')).toBe(3);
  expect(codePoints('a🦘b')).toBe(3);
  expect(codePoints('a\uD83Eb')).toBe(3);
  expect(codePoints('\uDD98\uD83E')).toBe(2);
});

it('never cuts a long word between the two halves of a character (each half would reach the store as U+FFFD)', () => {
  const word = `${'a'.repeat(CHUNK_CHARS - 1)}🦘${'b'.repeat(100)}`;
  const chunks = chunksOf(makeSession('pair', { messages: [textMessage('user', word)] }), 'B');
  expect(chunks.length).toBe(2);
  expect(chunks.every((c) => c.body.isWellFormed())).toBe(true);
  expect(chunks[1]?.body.startsWith('🦘')).toBe(true);
  expect(chunks[1]?.messages).toEqual([0]);
});
