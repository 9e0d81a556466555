// The app's Team source against a real store: settings kept (the token in a file only the user reads), the review before a first push, the team's sessions listed and opened through routed keys, auto-push.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServiceMethods } from '../../shared/api.ts';
import type { Session } from '../../shared/session.ts';
import { textMessage } from '../search-index/test-sessions.ts';
import { SECRETS } from '../test-support/planted-secrets.ts';
import { waitFor } from '../test-support/wait-for.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import type { TeamConnection } from './team-connection.ts';
import { withTeamSessions } from './team-routes.ts';
import { TeamSource } from './team-source.ts';
import { accountConnection, connectUrl, fixtureSessions, memoryLoader } from './test-team.ts';

describeWithPostgres("the app's Team source", (pgs) => {
  let owner: TeamConnection;
  let alice: { conn: TeamConnection; token: string; url: string };
  let plainUrl: string;
  let dataDir: string;
  let sessions: Session[];
  let team: TeamSource;
  const events: string[] = [];

  beforeAll(async () => {
    const ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    alice = await accountConnection(owner, ownerUrl, 'alice', 'member');
    const u = new URL(alice.url);
    u.password = '';
    plainUrl = u.href;
    dataDir = mkdtempSync(join(tmpdir(), 'sv-team-source-'));
    sessions = (await fixtureSessions(['codex'])).slice(0, 2);
    sessions[0] = { ...(sessions[0] as Session), messages: [...(sessions[0] as Session).messages, textMessage('user', `deploy with ${SECRETS.github}`)] };
    team = new TeamSource({
      dataDir,
      env: {},
      emit: (e) => events.push(e.name),
      openLoader: () => ({ ...memoryLoader(sessions), close: async () => undefined }),
      // As the catalogue lists them: a session that grew is listed with more messages.
      listings: async (keys) => new Map(keys.map((k) => [k, `${k} with ${sessions.find((s) => s.key === k)?.messages.length} messages`])),
      autoPushDelayMs: 20,
    });
  }, 30_000);

  afterAll(async () => {
    await team?.close();
    await alice?.conn.close();
    await owner?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the store and machine in settings and the token in a file only this user can read; a URL with a password is refused', async () => {
    const m = team.methods();
    await expect(m.setTeamSettings({ store: alice.url })).rejects.toThrow(/not in --to: other users of this machine can see command lines/);
    const status = await m.setTeamSettings({ store: plainUrl, token: alice.token, machine: 'alice-app' });
    expect(status).toMatchObject({ store: plainUrl, machine: 'alice-app', autoPush: false, hasToken: true, account: 'alice', role: 'member', error: null });
    expect(JSON.stringify(status)).not.toContain(alice.token);
    const tokenFile = join(dataDir, 'team', 'token');
    expect(readFileSync(tokenFile, 'utf8')).toBe(alice.token);
    expect(statSync(tokenFile).mode & 0o077).toBe(0);
    expect(readFileSync(join(dataDir, 'team', 'settings.json'), 'utf8')).not.toContain(alice.token);
  });

  it('holds sessions new to the store for review, then pushes them when confirmed; lists and opens them through team keys', async () => {
    const m = team.methods();
    const keys = sessions.map((s) => s.key);
    const review = await m.pushToTeam({ keys, confirm: false, keep: [] });
    expect(review.held).toEqual(keys);
    expect(review.pushed).toEqual([]);
    expect(review.findings.map((f) => f.rule)).toContain('github');
    const sent = await m.pushToTeam({ keys, confirm: true, keep: [] });
    expect(sent.pushed).toEqual(keys);
    const listed = await m.listTeamSessions({ query: '', limit: 200, offset: 0 });
    expect(listed.sessions.map((s) => s.key).sort()).toEqual(keys.map((k) => `alice-app/${k}`).sort());
    expect(listed.sessions.every((s) => s.machine === 'alice-app')).toBe(true);
    // A search gives, per session, where it matched: the message to open at, and the words in context.
    const found = await m.listTeamSessions({ query: 'deploy', limit: 200, offset: 0 });
    expect(found.matches).toHaveLength(found.sessions.length);
    expect(found.matches.some((x) => x.messageIndex !== null && x.snippet.some((p) => p.hit))).toBe(true);

    // The app's methods with team keys routed: a team session opens like a local one, and compares with one.
    const local = { getSession: async () => ({ key: 'local' }) } as unknown as ServiceMethods;
    const routed = withTeamSessions(
      local,
      () => team.readMethods(),
      async () => sessions[1] as Session,
    );
    const opened = await routed.getSession({ key: `alice-app/${keys[0]}`, messageLimit: 1000 });
    expect(opened.messages.at(-1)?.parts).toEqual([expect.objectContaining({ text: expect.stringContaining('deploy with [REDACTED:') })]);
    const comparison = await routed.compareSessions({ a: `alice-app/${keys[0]}`, b: keys[1] as string });
    expect(comparison.a.key).toBe(`alice-app/${keys[0]}`);
    await expect(routed.keepSession({ key: `alice-app/${keys[0]}` })).rejects.toThrow(/read-only: keepSession/);
    // A summary saved on a team session from the app is the store's, by the account; the list's marks come from the store, in the order asked.
    const teamKey0 = `alice-app/${keys[0]}`;
    const saved = await routed.setSummary({
      key: teamKey0,
      summary: { overview: 'Deploys the API.', decisions: [], outcomes: [], openItems: [], tags: [] },
      author: 'you',
    });
    expect(saved.summary).toMatchObject({ source: 'vault', author: 'alice', overview: 'Deploys the API.' });
    const withLocal = withTeamSessions(
      {
        summaryStates: async ({ keys: asked }: { keys: string[] }) => ({
          states: asked.map((key) => ({ key, source: 'vault', author: 'you', updatedAt: null })),
        }),
      } as unknown as ServiceMethods,
      () => team.readMethods(),
      async () => sessions[1] as Session,
    );
    expect((await withLocal.summaryStates({ keys: [teamKey0, 'codex:local', `alice-app/${keys[1]}`] })).states).toEqual([
      { key: teamKey0, source: 'vault', author: 'alice', updatedAt: saved.summary?.updatedAt },
      { key: 'codex:local', source: 'vault', author: 'you', updatedAt: null },
      { key: `alice-app/${keys[1]}`, source: null, author: null, updatedAt: null },
    ]);
    await expect(
      routed.exportBundle({
        exportId: 'mixed-1',
        keys: [`alice-app/${keys[0]}`, keys[1] as string],
        format: 'zip',
        keep: [],
        redact: true,
        includeChildren: true,
      }),
    ).rejects.toThrow("Share team sessions and this machine's sessions apart");
  });

  it('auto-pushes a session that changed, and never a session the store does not have yet', async () => {
    const m = team.methods();
    const before = (await m.getTeamStatus({})).lastPush?.at;
    await m.setTeamSettings({ autoPush: true });
    sessions[1] = { ...(sessions[1] as Session), messages: [...(sessions[1] as Session).messages, textMessage('user', 'one more turn')] };
    const fresh: Session = { ...(sessions[0] as Session), key: 'codex:fresh-one', id: 'fresh-one' };
    sessions.push(fresh);
    team.noteChanged([(sessions[1] as Session).key, fresh.key]);
    const last = await waitFor(
      async () => {
        const s = await m.getTeamStatus({});
        return s.lastPush && s.lastPush.at !== before ? s.lastPush : undefined;
      },
      10_000,
      'the auto-push to run',
    );
    expect(last).toMatchObject({ pushed: 1, held: [fresh.key], error: null });
    const stored = await owner.client.query<{ key: string }>(`SELECT key FROM session_vault.sessions WHERE machine = 'alice-app' ORDER BY key`);
    expect(stored.rows.map((r) => r.key)).not.toContain(fresh.key);
  });
});
