// The list read from the index alone (while a start restores the catalogue) gives the rows the restored catalogue gives.
import { describe, expect, it } from 'vitest';
import type { Session, SessionSummary } from '../../shared/session.ts';
import type { ListQuery, VaultKind } from '../catalogue/catalogue.ts';
import { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { listEarly, listableEarly } from './early-listing.ts';
import { listWithIndex } from './search-service.ts';
import { makeSession, readResult } from './test-sessions.ts';

const COPIES = '/data/vault/sessions';
const kindOf = (path: string): VaultKind => (path.startsWith(`${COPIES}/`) ? 'copy' : path.startsWith('/data/vault/forks/') ? 'owned' : null);
const decorate = (s: SessionSummary): SessionSummary => (s.key === 'codex:b' ? { ...s, starred: true, tags: ['x'] } : s);
const ROOTS = ['/roots', COPIES, '/data/vault/forks', '/data/vault/recorded'];

function put(catalogue: IndexedCatalogue, path: string, session: Session, mtime = 1): void {
  const { result, text } = readResult(session);
  catalogue.put(path, 100, mtime, result.ok ? { ...result, text } : result);
}

/** A library with every case the list treats specially, written to an index and restored from it by a second catalogue. */
async function library(): Promise<{ index: SessionIndex; restored: IndexedCatalogue }> {
  const index = new SessionIndex(':memory:');
  const first = new IndexedCatalogue(index, kindOf);
  const at = (day: number) => ({ createdAt: `2026-01-0${day}T00:00:00Z`, updatedAt: `2026-01-0${day}T10:00:00Z` });
  put(first, '/roots/a.json', makeSession('a', { ...at(1), childKeys: ['vizier:a-child'] }));
  put(first, '/roots/a-child.json', makeSession('a-child', { ...at(2), parentKey: 'vizier:a' }));
  put(first, '/roots/orphan.json', makeSession('orphan', { ...at(3), parentKey: 'vizier:gone' }));
  put(first, '/roots/b.json', makeSession('b', { ...at(4), format: 'codex', key: 'codex:b' }));
  // A kept copy of a session whose live file still exists: listed once, as the live file, marked kept.
  put(first, `${COPIES}/vizier_a/source/roots/a.json`, makeSession('a', at(1)));
  // A kept copy whose live file is gone: listed as the copy.
  put(first, `${COPIES}/vizier_c/source/old/c.json`, makeSession('c', at(5)));
  put(first, '/data/vault/forks/f-1/session.json', makeSession('f-1', at(6)));
  // Indexed by an earlier run with another --root: not in the folders read now.
  put(first, '/elsewhere/e.json', makeSession('e', at(7)));
  await first.release();
  const restored = new IndexedCatalogue(index, kindOf);
  await restored.restore((path) => ROOTS.some((r) => path.startsWith(`${r}/`)));
  return { index, restored };
}

describe('the list read from the index alone', () => {
  it('gives the same rows, in the same order, as the restored catalogue, for every query it answers', async () => {
    const { index, restored } = await library();
    const annotated = () => null;
    const queries: ListQuery[] = [{}, { limit: 2 }, { includeChildren: true }, { format: 'codex' }, { format: 'vizier', includeChildren: true, limit: 3 }];
    for (const query of queries) {
      const early = listEarly(index, query, { roots: ROOTS, copiesDir: COPIES, kindOf, decorate });
      const later = listWithIndex(restored, query, decorate, annotated);
      expect(early, JSON.stringify(query)).toEqual(later);
    }
    const all = listEarly(index, { includeChildren: true }, { roots: ROOTS, copiesDir: COPIES, kindOf, decorate });
    // The cases themselves, so the comparison above is not of two empty lists.
    expect(all.sessions.map((s) => s.key)).toEqual(['vizier:f-1', 'vizier:c', 'codex:b', 'vizier:orphan', 'vizier:a-child', 'vizier:a']);
    expect(all.sessions.find((s) => s.key === 'vizier:a')).toMatchObject({ kept: true, sourceGone: false, childCount: 1, primaryPath: '/roots/a.json' });
    expect(all.sessions.find((s) => s.key === 'vizier:c')).toMatchObject({ kept: true, sourceGone: true });
    expect(all.sessions.find((s) => s.key === 'codex:b')).toMatchObject({ starred: true });
    expect(listEarly(index, {}, { roots: ROOTS, copiesDir: COPIES, kindOf, decorate }).sessions.map((s) => s.key)).not.toContain('vizier:a-child');
  });

  it('pages: every window (offset, limit) is the same slice of the whole list, early and after the restore, with the text box too', async () => {
    const { index, restored } = await library();
    const ctx = { roots: ROOTS, copiesDir: COPIES, kindOf, decorate };
    for (const base of [{}, { includeChildren: true }] as ListQuery[]) {
      const whole = listWithIndex(restored, base, decorate, () => null);
      expect(whole.sessions.length).toBeGreaterThan(3);
      for (const [offset, limit] of [
        [0, 2],
        [2, 2],
        [4, 10],
        [99, 5],
      ] as const) {
        const expected = { sessions: whole.sessions.slice(offset, offset + limit), total: whole.total };
        expect(
          listWithIndex(restored, { ...base, offset, limit }, decorate, () => null),
          JSON.stringify({ base, offset }),
        ).toEqual(expected);
        expect(listEarly(index, { ...base, offset, limit }, ctx), JSON.stringify({ base, offset })).toEqual(expected);
      }
    }
    const byText = listWithIndex(restored, { text: 'vizier' }, decorate, () => null);
    expect(byText.total).toBeGreaterThan(2);
    expect(listWithIndex(restored, { text: 'vizier', offset: 1, limit: 1 }, decorate, () => null)).toEqual({
      sessions: byText.sessions.slice(1, 2),
      total: byText.total,
    });
  });

  it('sees a file indexed between two calls (its view is worked out again when the index changes)', async () => {
    const { index, restored } = await library();
    const ctx = { roots: ROOTS, copiesDir: COPIES, kindOf, decorate };
    const before = listEarly(index, { includeChildren: true }, ctx);
    expect(listEarly(index, { includeChildren: true }, ctx)).toEqual(before);
    put(restored, '/roots/a-child-2.json', makeSession('a-child-2', { updatedAt: '2026-01-09T00:00:00Z', parentKey: 'vizier:a' }));
    await restored.release();
    const after = listEarly(index, {}, ctx);
    expect(after.sessions.map((s) => s.key)).not.toContain('vizier:a-child-2');
    expect(after.sessions.find((s) => s.key === 'vizier:a')?.childCount).toBe(2);
    expect(listEarly(index, { includeChildren: true }, ctx).sessions[0]?.key).toBe('vizier:a-child-2');
  });

  it('answers only what needs no catalogue: text, vault filters and changed-keys refreshes wait for the restore', () => {
    expect(listableEarly({ limit: 100 })).toBe(process.platform !== 'win32');
    for (const q of [{ text: 'x' }, { starred: true }, { kept: false }, { tag: 't' }, { keys: ['vizier:a'] }] as ListQuery[])
      expect(listableEarly(q)).toBe(false);
  });
});
