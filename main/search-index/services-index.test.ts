// The index inside the running services: searchable content, restarts that re-read only changes, live updates.
import { waitUntil } from '../test-support/wait-for.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices, type Services } from '../app/services.ts';
import { jidoSession } from '../test-support/session-files.ts';
import { DatabaseSync } from 'node:sqlite';
import { INDEX_FILE_NAME } from './index-store.ts';
import { READING_VERSION } from './reading-version.ts';

let base: string;
let root: string;
let services: Services | null = null;

const jidoDir = () => join(root, '.jido_code', 'sessions');
const dataDir = () => join(base, 'data');

async function startServices(watch = true): Promise<Services> {
  services = createServices({ dataDir: dataDir(), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch });
  await services.start();
  await services.whenScanned();
  return services;
}

async function found(s: Services, query: string): Promise<string[]> {
  return (await s.client.searchSessions({ query, limit: 50, offset: 0 })).results.map((r) => r.summary.key);
}

/** Rewrites j-1 with `name` as its title, keeping its size and mtime: a scan that trusts them does not read it again. */
async function rewriteKeepingStamp(name: string): Promise<void> {
  const same = join(jidoDir(), 'j-1.json');
  await writeFile(same, jidoSession('j-1', name));
  await utimes(same, 1_700_000_000, 1_700_000_000);
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-index-services-'));
  root = join(base, 'root');
  await mkdir(jidoDir(), { recursive: true });
  await writeFile(join(jidoDir(), 'j-1.json'), jidoSession('j-1', 'etlpipeline'));
  await writeFile(join(jidoDir(), 'j-2.json'), jidoSession('j-2', 'frontend'));
});

afterEach(async () => {
  await services?.close();
  services = null;
  await rm(base, { recursive: true, force: true });
});

describe('services with the search index', () => {
  it('searches message text and opens at the matching message', async () => {
    const s = await startServices(false);
    const page = await s.client.searchSessions({ query: 'etlpipeline build', limit: 10, offset: 0 });
    expect(page.results.map((r) => r.summary.key)).toEqual(['jido-code:j-1']);
    expect(page.results[0]?.messageIndex).toBe(0);
    expect(page.results[0]?.snippet.filter((p) => p.hit).map((p) => p.text.toLowerCase())).toEqual(expect.arrayContaining(['etlpipeline', 'build']));
    const listed = await s.client.listSessions({ text: 'Done' });
    expect(listed.total).toBe(2);
  });

  it('filters by star, tag and kept copy, which only the vault knows', async () => {
    const s = await startServices(false);
    expect((await s.client.searchSessions({ query: '', limit: 10, offset: 0 })).total).toBe(2);
    await s.client.setAnnotations({ key: 'jido-code:j-2', starred: true, tags: ['ui-work'] });
    await s.client.keepSession({ key: 'jido-code:j-1' });
    await s.whenScanned();
    // The kept copy is indexed too, but counted once, with its live file, in every count.
    expect((await s.client.searchSessions({ query: '', limit: 10, offset: 0 })).total).toBe(2);
    expect((await s.client.searchSessions({ query: 'etlpipeline', limit: 10, offset: 0 })).total).toBe(1);
    expect(await found(s, 'is:starred')).toEqual(['jido-code:j-2']);
    expect(await found(s, 'tag:UI-work build')).toEqual(['jido-code:j-2']);
    expect(await found(s, 'tag:other')).toEqual([]);
    expect(await found(s, 'is:kept')).toEqual(['jido-code:j-1']);
    // The kept copy and the live file are one session, found once.
    expect(await found(s, 'etlpipeline')).toEqual(['jido-code:j-1']);
  });

  it("lists through the index like the list does, with facets that include the vault's tags", async () => {
    const s = await startServices(false);
    await s.client.setAnnotations({ key: 'jido-code:j-2', starred: true, tags: ['ui work'] });
    const page = await s.client.searchSessions({ query: '', limit: 1, offset: 0, sort: 'size', facets: true });
    const listed = await s.client.listSessions({});
    expect(page.total).toBe(listed.total);
    expect(page.results).toHaveLength(1);
    expect(page.facets?.source).toEqual([{ value: 'jido-code', count: 2, filter: 'source:jido-code' }]);
    expect(page.facets?.tag).toEqual([{ value: 'ui work', count: 1, filter: 'tag:"ui work"' }]);
    expect((await s.client.searchSessions({ query: 'tag:"ui work"', limit: 10, offset: 0 })).results.map((r) => r.summary.starred)).toEqual([true]);
  });

  it('restores the list from the index after a restart and re-reads only files whose size or mtime changed', async () => {
    await rewriteKeepingStamp('etlpipeline');
    let s = await startServices(false);
    await s.close();
    // Same size and mtime but different words: an unchanged file must not be read again.
    await rewriteKeepingStamp('etlpipeliNE');
    // A changed file is read again.
    await writeFile(join(jidoDir(), 'j-2.json'), jidoSession('j-2', 'backendwork'));
    s = await startServices(false);
    expect((await s.client.listSessions({})).total).toBe(2);
    expect(await found(s, 'etlpipeline')).toEqual(['jido-code:j-1']);
    expect((await s.client.listSessions({})).sessions.find((x) => x.key === 'jido-code:j-1')?.title).toBe('etlpipeline');
    expect(await found(s, 'backendwork')).toEqual(['jido-code:j-2']);
    expect(await found(s, 'frontend')).toEqual([]);
  });

  it('reads every file again once after the readers changed (an index of an older reading version), then only changes', async () => {
    await rewriteKeepingStamp('etlpipeline');
    let s = await startServices(false);
    await s.close();
    // What older readers made of an unchanged file (same size and mtime), in an index stamped with their version.
    await rewriteKeepingStamp('etlpipeliNE');
    const db = new DatabaseSync(join(dataDir(), INDEX_FILE_NAME));
    db.prepare("UPDATE index_state SET value = ? WHERE name = 'reading_version'").run(READING_VERSION - 1);
    db.close();
    s = await startServices(false);
    const title = async () => (await s.client.listSessions({})).sessions.find((x) => x.key === 'jido-code:j-1')?.title;
    expect(await title()).toBe('etlpipeliNE');
    expect((await s.client.listSessions({})).total).toBe(2);
    await s.close();
    // Read with this version now: an unchanged file is not read again.
    await rewriteKeepingStamp('ETLPIPELINE');
    s = await startServices(false);
    expect(await title()).toBe('etlpipeliNE');
  });

  it('rebuilds a corrupt index at start, saying so, and still lists everything', async () => {
    let s = await startServices(false);
    await s.close();
    await writeFile(join(dataDir(), INDEX_FILE_NAME), Buffer.alloc(8192, 0x5a));
    s = await startServices(false);
    expect(s.startupProblems().join('\n')).toMatch(/search index .* rebuilt/);
    expect(await found(s, 'frontend')).toEqual(['jido-code:j-2']);
  });

  it('forgets files of a --root from an earlier run', async () => {
    let s = await startServices(false);
    await s.close();
    const elsewhere = join(base, 'other');
    await mkdir(elsewhere);
    services = createServices({ dataDir: dataDir(), shell: 'cli', extraRoots: [elsewhere], discoverDefaults: false, watch: false });
    s = services;
    await s.start();
    await s.whenScanned();
    expect((await s.client.listSessions({})).total).toBe(0);
    expect(await found(s, 'frontend')).toEqual([]);
  });

  it('keeps the index current as files are added, changed, renamed and deleted', async () => {
    const s = await startServices(true);
    const added = join(jidoDir(), 'j-3.json');
    await writeFile(added, jidoSession('j-3', 'quokkaproject'));
    await waitUntil(async () => (await found(s, 'quokkaproject')).length === 1);
    await writeFile(added, jidoSession('j-3', 'wombatproject'));
    await waitUntil(async () => (await found(s, 'wombatproject')).length === 1);
    expect(await found(s, 'quokkaproject')).toEqual([]);
    const renamed = join(jidoDir(), 'j-3-renamed.json');
    await rename(added, renamed);
    await waitUntil(async () => {
      const page = await s.client.searchSessions({ query: 'wombatproject', limit: 10, offset: 0 });
      return page.total === 1 && page.results[0]?.summary.primaryPath === renamed;
    });
    await rm(renamed);
    await waitUntil(async () => (await found(s, 'wombatproject')).length === 0);
  });
});
