// The indexed catalogue holds keys and facts, not summaries: rows come back whole from the index after release and restart.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../test-support/wait-for.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { makeSession, readResult } from './test-sessions.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';

let dir: string;
const open: SessionIndex[] = [];
const catalogueAt = (file: string) => {
  const index = new SessionIndex(file);
  open.push(index);
  return new IndexedCatalogue(index);
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-indexed-catalogue-'));
});
afterEach(async () => {
  for (const index of open.splice(0)) index.close();
  await rm(dir, { recursive: true, force: true });
});

function fill(catalogue: IndexedCatalogue) {
  const parent = readResult(makeSession('mom', { status: 'closed' })).result;
  const child = readResult(makeSession('kid', { parentKey: 'vizier:mom' })).result;
  const withCompanion: SummaryResponse = child.ok ? { ...child, companions: ['/roots/kid.meta.json'] } : child;
  catalogue.put('/roots/mom.json', 10, 1, parent);
  catalogue.put('/roots/kid.json', 20, 2, withCompanion);
  catalogue.put('/roots/bad.json', 3, 3, { id: 0, ok: false, format: 'vizier', unreadable: { code: 'invalid_json', message: 'cut short' } });
}

const rows = (catalogue: IndexedCatalogue) => [...catalogue.entries()].map((e) => ({ ...e.summary }));
const facts = (catalogue: IndexedCatalogue) =>
  [...catalogue.entries()].map(({ path, key, parentKey, unreadable, closed, companions }) => ({ path, key, parentKey, unreadable, closed, companions }));

describe('IndexedCatalogue', () => {
  it('lets go of summaries once the index has them, and still shows every row exactly as before', async () => {
    const catalogue = catalogueAt(join(dir, 'index.sqlite'));
    fill(catalogue);
    const before = rows(catalogue);
    expect([...catalogue.entries()].every((e) => e.held !== null)).toBe(true);
    await catalogue.release();
    expect([...catalogue.entries()].every((e) => e.held === null)).toBe(true);
    expect(rows(catalogue)).toEqual(before);
    expect(catalogue.summariesOf([...catalogue.entries()])).toEqual(before);
    expect(before.find((s) => s.key === 'vizier:bad')?.unreadable).toEqual({ code: 'invalid_json', message: 'cut short' });
  });

  it('restores after a restart from stored facts: same keys, parents, companions and rows, no summary held', async () => {
    const file = join(dir, 'index.sqlite');
    const first = catalogueAt(file);
    fill(first);
    const before = rows(first);
    const beforeFacts = facts(first);
    await first.release();
    open.pop()?.close();

    const second = catalogueAt(file);
    expect(await second.restore(() => true)).toEqual({ restored: 3, dropped: 0 });
    expect([...second.entries()].every((e) => e.held === null)).toBe(true);
    expect(facts(second)).toEqual(beforeFacts);
    expect(second.childrenOf('vizier:mom')).toEqual(['vizier:kid']);
    expect(second.ownersOf('/roots/kid.meta.json')).toEqual(['/roots/kid.json']);
    expect(rows(second)).toEqual(before);
  });

  it('lets go of summaries by itself as the index commits them, without waiting for the scan to end', async () => {
    const catalogue = catalogueAt(join(dir, 'index.sqlite'));
    fill(catalogue);
    const before = rows(catalogue);
    await waitUntil(() => [...catalogue.entries()].every((e) => e.held === null), 5000, 'the index to commit the batch');
    expect([...catalogue.entries()].map((e) => e.held)).toEqual([null, null, null]);
    expect(rows(catalogue)).toEqual(before);
  });

  it('a file changed after release holds its new summary until the next release', async () => {
    const catalogue = catalogueAt(join(dir, 'index.sqlite'));
    fill(catalogue);
    await catalogue.release();
    catalogue.put('/roots/mom.json', 11, 5, readResult(makeSession('mom', { title: 'Renamed' })).result);
    const mom = catalogue.byKey('vizier:mom');
    expect(mom?.held?.title).toBe('Renamed');
    await catalogue.release();
    expect(catalogue.byKey('vizier:mom')?.held).toBeNull();
    expect(catalogue.byKey('vizier:mom')?.summary.title).toBe('Renamed');
  });

  it("gives the tool's own file back the plain key an older index gave to a loose copy of the same session", async () => {
    const file = join(dir, 'index.sqlite');
    const session = readResult(makeSession('same')).result;
    const own = '/roots/.vizier/sessions/same/session.json';
    const copy = '/downloads/sent to me.json';
    // As an index written before loose copies were keyed by their path: the copy read first holds the plain key.
    const older = catalogueAt(file);
    older.put(copy, 10, 1, session);
    older.put(own, 10, 1, session);
    expect(facts(older).map((f) => [f.path, f.key])).toEqual([
      [copy, 'vizier:same'],
      [own, expect.stringMatching(/^vizier:same~[0-9a-f]{8}$/)],
    ]);
    await older.release();
    open.pop()?.close();

    let asked = 0;
    const isLoose = (path: string) => (asked++, path === copy);
    const restart = () => {
      const index = new SessionIndex(file);
      open.push(index);
      return new IndexedCatalogue(
        index,
        () => null,
        () => '',
        () => null,
        isLoose,
      );
    };
    const upgraded = restart();
    await upgraded.restore(() => true);
    const keys = () => Object.fromEntries(facts(upgraded).map((f) => [f.path, f.key]));
    expect(keys()).toEqual({ [own]: 'vizier:same', [copy]: expect.stringMatching(/^vizier:same~[0-9a-f]{8}$/) });
    expect(upgraded.byKey('vizier:same')?.path).toBe(own);
    expect(upgraded.summariesOf([upgraded.byKey('vizier:same')!])[0]?.key).toBe('vizier:same');
    const repaired = keys();
    await upgraded.release();
    open.pop()?.close();
    // The index rows were rewritten too: the next start finds the same keys with nothing to repair.
    const next = restart();
    await next.restore(() => true);
    expect(Object.fromEntries(facts(next).map((f) => [f.path, f.key]))).toEqual(repaired);
    await next.release();
    open.pop()?.close();
    // That start found every key right and said so in the index: later starts trust the stored keys, asking no reader.
    asked = 0;
    const trusted = restart();
    await trusted.restore(() => true);
    expect(Object.fromEntries(facts(trusted).map((f) => [f.path, f.key]))).toEqual(repaired);
    expect(asked).toBe(0);
  });
});
