// The app's contract over a team store, as `serve --team` answers it: listed and searched with machines, opened, raw files from the store, compared, exported; changes refused.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServiceMethods } from '../../shared/api.ts';
import type { Session } from '../../shared/session.ts';
import { eachEntry, entryName, openZip } from '../bundle/read-zip.ts';
import { safeName } from '../vault/vault-store.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import type { TeamConnection } from './team-connection.ts';
import { resolveTeamTarget } from './team-credentials.ts';
import { teamKey } from './team-reader.ts';
import { openTeamServices, type TeamServices } from './team-services.ts';
import { accountConnection, connectUrl, fixtureSessions, memoryLoader } from './test-team.ts';

describeWithPostgres("team store served through the app's contract", (pgs) => {
  let owner: TeamConnection;
  let team: TeamServices;
  let methods: ServiceMethods;
  let laptop: Session[];
  let desktop: Session[];
  let dataDir: string;
  let ledger: Session;

  beforeAll(async () => {
    const ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    const alice = await accountConnection(owner, ownerUrl, 'alice', 'member');
    const bob = await accountConnection(owner, ownerUrl, 'bob', 'member');
    const vera = await accountConnection(owner, ownerUrl, 'vera', 'viewer');
    laptop = await fixtureSessions(['claude-code']);
    desktop = await fixtureSessions(['vizier']);
    await pushSessions({ client: alice.conn.client, machine: 'alice-laptop', keys: laptop.map((s) => s.key), loader: memoryLoader(laptop), env: {} });
    await pushSessions({ client: bob.conn.client, machine: 'bob-desktop', keys: desktop.map((s) => s.key), loader: memoryLoader(desktop), env: {} });
    ledger = laptop.find((s) => s.title === 'Ledger import CLI scaffolding') as Session;
    for (const c of [alice.conn, bob.conn, vera.conn]) await c.close();
    dataDir = mkdtempSync(join(tmpdir(), 'sv-team-serve-'));
    team = await openTeamServices(resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: vera.url }), dataDir, {});
    methods = team.methods;
  }, 30_000);

  afterAll(async () => {
    await team?.close();
    await owner?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists and searches both machines' sessions, each marked with its machine, with the app's query syntax", async () => {
    const { sessions, total } = await methods.listSessions({});
    expect(total).toBe(laptop.length + desktop.length);
    expect(new Set(sessions.map((s) => s.machine))).toEqual(new Set(['alice-laptop', 'bob-desktop']));
    expect(sessions.every((s) => s.key === teamKey(s.machine as string, s.key.slice((s.machine as string).length + 1)))).toBe(true);
    const found = await methods.searchSessions({ query: 'OFX machine:alice-laptop', limit: 50, offset: 0 });
    expect(found.results.map((r) => r.summary.key)).toContain(teamKey('alice-laptop', ledger.key));
    expect((await methods.searchSessions({ query: 'OFX machine:bob-desktop', limit: 50, offset: 0 })).total).toBe(0);
    expect(found.totalCapped).toBeUndefined();
    // A phrase's count stops with its page: more match than one, so the total is "1+".
    expect(await methods.searchSessions({ query: '"the"', limit: 1, offset: 0 })).toMatchObject({ total: 1, totalCapped: true });
    expect((await methods.listSessions({ starred: true })).total).toBe(0);
    expect(await methods.getTeamStatus({})).toMatchObject({ served: true, store: expect.stringMatching(/^postgresql:\/\/vera@/) });
  });

  it('gives each result a snippet with the matched words marked, and facets whose filters select what they counted', async () => {
    const found = await methods.searchSessions({ query: 'ofx', limit: 50, offset: 0, facets: true });
    const hit = found.results.find((r) => r.summary.key === teamKey('alice-laptop', ledger.key));
    const hits = hit?.snippet.filter((p) => p.hit).map((p) => p.text.toLowerCase());
    expect(hits?.length).toBeGreaterThan(0);
    expect(new Set(hits)).toEqual(new Set(['ofx']));
    // Words around the match, as the local search shows them, and no more than a snippet's worth.
    const text = hit?.snippet.map((p) => p.text).join('') ?? '';
    expect(text.length).toBeGreaterThan(20);
    expect(text.length).toBeLessThan(300);
    // A phrase is marked whole.
    const phrase = await methods.searchSessions({ query: '"import CLI"', limit: 50, offset: 0 });
    expect(phrase.results[0]?.snippet.some((p) => p.hit && /^import\W+cli$/i.test(p.text))).toBe(true);

    const all = await methods.searchSessions({ query: '', limit: 1, offset: 0, facets: true });
    const sources = all.facets?.source ?? [];
    expect(sources.map((v) => [v.value, v.count]).sort()).toEqual(
      [
        ['claude-code', laptop.length],
        ['vizier', desktop.length],
      ].sort(),
    );
    expect(all.facets?.tag).toEqual([]);
    for (const facet of ['source', 'project', 'model', 'date'] as const) {
      for (const v of (all.facets?.[facet] ?? []).slice(0, 3)) {
        expect((await methods.searchSessions({ query: v.filter, limit: 1, offset: 0 })).total, `${facet} ${v.filter}`).toBe(v.count);
      }
    }
    // Over the matches of a query only.
    expect(found.facets?.source.map((v) => v.value)).toEqual(['claude-code']);
  });

  it('counts machine: and user: facets, each value with the filter that selects exactly its count', async () => {
    const all = await methods.searchSessions({ query: '', limit: 1, offset: 0, facets: true });
    expect(all.facets?.machine).toEqual(
      [
        { value: 'alice-laptop', filter: 'machine:alice-laptop', count: laptop.length },
        { value: 'bob-desktop', filter: 'machine:bob-desktop', count: desktop.length },
      ].sort((a, b) => b.count - a.count || a.value.localeCompare(b.value)),
    );
    expect(new Set(all.facets?.user?.map((v) => v.value))).toEqual(new Set(['alice', 'bob']));
    for (const facet of ['machine', 'user'] as const) {
      for (const v of all.facets?.[facet] ?? []) {
        expect((await methods.searchSessions({ query: v.filter, limit: 1, offset: 0 })).total, `${facet} ${v.filter}`).toBe(v.count);
      }
    }
    // Over a query's matches, and a left-out machine takes its sessions out of every count.
    const narrowed = await methods.searchSessions({ query: 'ofx', limit: 1, offset: 0, facets: true });
    expect(narrowed.facets?.machine?.map((v) => v.value)).toEqual(['alice-laptop']);
    expect(narrowed.facets?.user?.map((v) => v.value)).toEqual(['alice']);
    const without = await methods.searchSessions({ query: '-machine:alice-laptop', limit: 1, offset: 0, facets: true });
    expect(without.facets?.machine).toEqual([{ value: 'bob-desktop', filter: 'machine:bob-desktop', count: desktop.length }]);
    expect(without.facets?.source.map((v) => v.value)).toEqual(['vizier']);
  });

  it('reads a NUL in a key, a query or a filter as a push stores it (a space): nothing fails, an unknown key is not found', async () => {
    // PostgreSQL's text holds no NUL: each of these failed the statement ("invalid byte sequence for encoding UTF8: 0x00").
    expect(await methods.listSessions({ tag: '\u0000' })).toEqual({ sessions: [], total: 0 });
    expect((await methods.searchSessions({ query: 'OFX\u0000 machine:"alice\u0000laptop"', limit: 5, offset: 0 })).total).toBe(0);
    expect((await methods.searchSessions({ query: 'OFX\u0000', limit: 5, offset: 0 })).results.map((r) => r.summary.key)).toContain(
      teamKey('alice-laptop', ledger.key),
    );
    await expect(methods.getSession({ key: teamKey('alice-laptop', `${ledger.key}\u0000`), messageLimit: 5 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await methods.summaryStates({ keys: [teamKey('alice-laptop', '\u0000')] })).states).toHaveLength(1);
  });

  it('opens a session in windows, and shows its source file and records as the store holds them', async () => {
    const key = teamKey('alice-laptop', ledger.key);
    const opened = await methods.getSession({ key, messageLimit: 2 });
    expect(opened.key).toBe(key);
    expect(opened.messages.map((m) => m.id)).toEqual(ledger.messages.slice(0, 2).map((m) => m.id));
    expect(opened.messagesTotal).toBe(ledger.messages.length);
    expect((await methods.getMessages({ key, offset: 2, limit: 1000 })).messages).toHaveLength(ledger.messages.length - 2);
    const file = readFileSync(ledger.sourceFiles[0]?.path as string);
    const raw = await methods.getRawSource({ key, fileIndex: 0, offset: 0, length: 64 });
    expect(raw).toMatchObject({ path: ledger.sourceFiles[0]?.path, size: file.length, offset: 0, truncated: true });
    expect(raw.text).toBe(file.subarray(0, raw.nextOffset).toString());
    const record = await methods.getRawRecord({ key, fileIndex: 0, line: 1 });
    expect(JSON.parse(record.text)).toEqual(JSON.parse(file.toString().split('\n')[0] as string));
  });

  it('compares a session of one machine with one of the other', async () => {
    const berth = desktop.find((s) => s.title.startsWith('Berth bookings')) as Session;
    const comparison = await methods.compareSessions({ a: teamKey('alice-laptop', ledger.key), b: teamKey('bob-desktop', berth.key) });
    expect(comparison.a.key).toBe(teamKey('alice-laptop', ledger.key));
    expect(comparison.b.key).toBe(teamKey('bob-desktop', berth.key));
  });

  it('exports a team session as a bundle with its stored source file, named as it was pushed', async () => {
    const done = await methods.exportBundle({
      exportId: 'team-export-1',
      keys: [teamKey('alice-laptop', ledger.key)],
      format: 'zip',
      keep: [],
      redact: true,
      includeChildren: true,
    });
    const names: string[] = [];
    const zip = await openZip(done.path);
    await eachEntry(zip, (entry) => names.push(entryName(entry)));
    zip.close();
    // The folder a bundle names by the session's own key (as pushed, without the machine).
    const folder = safeName(ledger.key);
    expect(names).toContain(`sessions/${folder}/session.json`);
    expect(names.some((n) => n.startsWith(`sessions/${folder}/source/`) && n.endsWith('.jsonl'))).toBe(true);
    expect(done.sessions).toBe(1);
  });

  it('says plainly why a store cannot be served, with no password in it', async () => {
    const wrong = 'Wrong-Password-1234';
    const u = new URL(await pgs.freshDatabase());
    const empty = openTeamServices(resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: u.href }), dataDir, {});
    await expect(empty).rejects.toThrow('This database holds no team store yet.');
    u.username = 'vera';
    u.password = wrong;
    const refused = await openTeamServices(resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: u.href }), dataDir, {}).then(
      () => 'opened',
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/refused the sign-in/);
    expect(refused).not.toContain(wrong);
  });

  it('refuses every change, plainly', async () => {
    const key = teamKey('alice-laptop', ledger.key);
    await expect(methods.keepSession({ key })).rejects.toThrow('The team store is served read-only: keepSession is not available here.');
    await expect(methods.addRoot({ path: '/tmp' })).rejects.toThrow(/read-only: addRoot/);
    await expect(methods.getSession({ key: 'alice-laptop/claude-code:nope', messageLimit: 10 })).rejects.toThrow(
      'The team store has no session claude-code:nope from alice-laptop.',
    );
  });
});
