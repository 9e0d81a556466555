// A session made ready to push hands on, as UTF-8 bytes, exactly the row's bodies and its files' parts: any text (accents, emoji), any size, session after session.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSession, scanContext } from '../bundle/prepare-session.ts';
import { findReader } from '../sources/registry.ts';
import { writeJidoFile } from '../test-support/session-files.ts';
import { readyToPush, unpackReady } from './push-prepare.ts';
import { sessionRow } from './session-row.ts';

describe('readyToPush', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sv-push-prepare-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('packs the row and the parts as the bytes of the text they came from', async () => {
    const texts = [
      'plain ascii words about the build',
      `accents é à ü, CJK 漢字, emoji 😀🚀 and a lone half of a pair \ud83d, ${'ünïcödé '.repeat(40_000)}`,
      'x'.repeat(3 * 1024 * 1024),
      'short again, after a big one: ✓',
    ];
    for (const [i, text] of texts.entries()) {
      const path = await writeJidoFile(dir, `s${i}`, text);
      const session = await findReader(path)!.read(path);
      const ctx = scanContext({}, []);
      const prepared = await prepareSession(session, ctx);
      const json = (prepared.json as Buffer).toString('utf8');
      const ready = await readyToPush(prepared, { sources: true, row: true, partBytes: 64 * 1024, stored: null }, ctx, () => undefined);
      expect(ready.kind).toBe('changed');
      if (ready.kind !== 'changed') continue;
      const { row, files } = unpackReady(ready);
      const expected = sessionRow(json, prepared.sha256, prepared.size);
      expect(row!.head.toString('utf8')).toBe(expected.head);
      expect(row!.messages.map((c) => c.body.toString('utf8'))).toEqual(expected.messages.map((c) => c.body));
      expect(row!.messages.map(({ body: _body, ...c }) => c)).toEqual(expected.messages.map(({ body: _body, ...c }) => c));
      expect(row!.texts.map((c) => c.body.toString('utf8'))).toEqual(expected.texts.map((c) => c.body));
      expect(row!.texts.map(({ body: _body, ...c }) => c)).toEqual(expected.texts.map(({ body: _body, ...c }) => c));
      // The source file's parts, one after the other, are the file as it was read (nothing in it to redact).
      const [file] = files;
      expect(Buffer.concat(file!.changed.map((p) => p.bytes)).equals(await readFile(path))).toBe(true);
      // Every body's bytes, and nothing else, fill the buffer handed on.
      const bodies = [row!.head, ...row!.messages.map((c) => c.body), ...row!.texts.map((c) => c.body), ...file!.changed.map((p) => p.bytes)];
      expect(bodies.reduce((n, b) => n + b.length, 0)).toBe(ready.packed.byteLength);
    }
  });
});
