// The fast paths' list rows are catalogue.ts's rows: the same fields in the same order, and the same catalogue of keys a restore builds.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../shared/session.ts';
import { summaryOf } from '../catalogue/catalogue.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import { readOnlyCatalogue, summaryMaker } from './read-only-catalogue.ts';
import { readOnlyIndex } from './read-only-index.ts';

const summary = (key: string, primaryPath: string): SessionSummary =>
  ({
    key,
    id: key.split(':')[1],
    format: 'claude-code',
    title: 'Fix the build',
    primaryPath,
    updatedAt: '2026-01-02T03:04:05.000Z',
    childCount: 0,
    unreadable: null,
  }) as unknown as SessionSummary;

describe('rows without catalogue.ts', () => {
  it('are the catalogue’s rows for a readable file of its own, byte for byte', async () => {
    const make = await summaryMaker(false);
    const result: SummaryResponse = { id: 0, ok: true, summary: summary('claude-code:a', '/elsewhere/a.jsonl'), companions: [] };
    const ours = make('/root/a.jsonl', 10, 20, result, 'claude-code:a~1234abcd');
    expect(JSON.stringify(ours)).toBe(JSON.stringify(summaryOf('/root/a.jsonl', 10, 20, result, 'claude-code:a~1234abcd')));
  });

  it('leave unreadable files and paths that may name a store’s session to catalogue.ts', async () => {
    const make = await summaryMaker(false);
    const ok: SummaryResponse = { id: 0, ok: true, summary: summary('opencode:s', '/root/opencode.db'), companions: [] };
    expect(() => make('/root/opencode.db#s', 0, 0, ok, 'opencode:s')).toThrow();
    const failed = { id: 0, ok: false, format: 'codex', unreadable: { kind: 'parse', message: 'bad' } } as unknown as SummaryResponse;
    expect(() => make('/root/x.jsonl', 0, 0, failed, 'codex:x')).toThrow();
    expect(await summaryMaker(true)).toBe(summaryOf);
  });

  it('list a kept copy under its session’s key only while no live file holds it', () => {
    const db = new DatabaseSync(':memory:');
    db.exec(
      'CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT, key TEXT, size INTEGER, mtime_ms REAL, parent_key TEXT, readable INTEGER, status TEXT); CREATE TABLE results (id INTEGER PRIMARY KEY, result TEXT)',
    );
    const add = db.prepare('INSERT INTO files (path, key, size, mtime_ms, parent_key, readable, status) VALUES (?, ?, 1, 1, ?, 1, NULL)');
    add.run('/vault/sessions/a/source/root/a.jsonl', 'k:a', null);
    add.run('/root/a.jsonl', 'k:a', null);
    add.run('/vault/sessions/b/source/root/b.jsonl', 'k:b', null);
    add.run('/root/b-sub.jsonl', 'k:b-sub', 'k:b');
    add.run('/old-root/c.jsonl', 'k:c', null);
    const kindOf = (path: string) => (path.startsWith('/vault/sessions/') ? 'copy' : null);
    const catalogue = readOnlyCatalogue(
      readOnlyIndex(db),
      (path) => !path.startsWith('/old-root/'),
      kindOf,
      () => {
        throw new Error('not read');
      },
    );
    expect(catalogue.size).toBe(4);
    expect(catalogue.byKey('k:a')?.path).toBe('/root/a.jsonl');
    expect(catalogue.keptCopy('k:a')?.path).toBe('/vault/sessions/a/source/root/a.jsonl');
    expect(catalogue.byKey('k:b')?.path).toBe('/vault/sessions/b/source/root/b.jsonl');
    expect(catalogue.byKey('k:b-sub')?.parentKey).toBe('k:b');
    expect(catalogue.byKey('k:c')).toBeUndefined();
    add.run('/root/a-again.jsonl', 'k:a', null);
    expect(() =>
      readOnlyCatalogue(
        readOnlyIndex(db),
        () => true,
        kindOf,
        () => summary('k:x', ''),
      ),
    ).toThrow(/two files/);
    db.close();
  });
});
