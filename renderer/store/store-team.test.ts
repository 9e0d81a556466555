// The Team slice: the store's status and sessions for a query (stale answers dropped), settings saved, and a push that opens the review before a first push.
import { describe, expect, it, vi } from 'vitest';
import type { TeamPushResult } from '../../shared/team-api.ts';
import { createAppStore } from './store.ts';
import { fakeClient, summary, teamStatus } from '../test-fixtures.ts';

const status = teamStatus();
const finding = { id: 'f1', rule: 'github', file: 'sessions/x/session.json', line: 3, preview: 'ghp_****', redacted: true };
const result = (over: Partial<TeamPushResult>): TeamPushResult => ({ pushed: [], unchanged: [], held: [], skipped: [], findings: [], bytes: 0, ...over });

describe('team slice', () => {
  it("reads the status and the team's sessions, and asks again for a new query", async () => {
    const list = vi.fn(async ({ query }: { query: string }) => ({
      sessions: [summary({ key: `bob-desktop/codex:${query || 'all'}`, machine: 'bob-desktop' })],
      matches: [{ snippet: [], messageIndex: null }],
      total: 1,
      problems: [],
    }));
    const fake = fakeClient({ getTeamStatus: async () => status, listTeamSessions: list });
    const store = createAppStore(fake.client);
    await store.getState().loadTeam();
    expect(store.getState().team.status).toEqual(status);
    expect(store.getState().team.sessions.map((s) => s.key)).toEqual(['bob-desktop/codex:all']);
    store.getState().setTeamQuery('berth');
    await vi.waitFor(() => expect(store.getState().team.sessions.map((s) => s.key)).toEqual(['bob-desktop/codex:berth']));
  });

  it('opens a team session at the message its query matched, with the words to mark; at the top without a match', async () => {
    const hit = summary({ key: 'bob-desktop/codex:long', machine: 'bob-desktop' });
    const titled = summary({ key: 'bob-desktop/codex:titled', machine: 'bob-desktop' });
    const fake = fakeClient({
      getTeamStatus: async () => status,
      listTeamSessions: async () => ({
        sessions: [hit, titled],
        matches: [
          {
            snippet: [
              { text: '… the ', hit: false },
              { text: 'Lighthouse', hit: true },
            ],
            messageIndex: 1400,
          },
          { snippet: [], messageIndex: null },
        ],
        total: 2,
        problems: [],
      }),
    });
    const store = createAppStore(fake.client);
    await store.getState().loadTeam();
    const opened = vi.spyOn(store.getState(), 'openSession').mockResolvedValue(undefined);
    store.setState({ openSession: opened });
    store.getState().setTeamQuery('lighthouse');
    await vi.waitFor(() => expect(store.getState().team.query).toBe('lighthouse'));
    await store.getState().openTeamSession(hit.key);
    expect(opened).toHaveBeenLastCalledWith(hit.key, { messageIndex: 1400, terms: expect.arrayContaining(['lighthouse']) });
    await store.getState().openTeamSession(titled.key);
    expect(opened).toHaveBeenLastCalledWith(titled.key, null);
  });

  it('asks for nothing but the status while no store is set, and shows why settings were refused', async () => {
    const fake = fakeClient({
      getTeamStatus: async () => ({ ...status, store: null, account: null, role: null }),
      setTeamSettings: async () => Promise.reject(new Error('Put the password in PGPASSWORD, not in --to')),
    });
    const store = createAppStore(fake.client);
    await store.getState().loadTeam();
    expect(fake.calls.map((c) => c.method)).not.toContain('listTeamSessions');
    expect(await store.getState().saveTeamSettings({ store: 'postgresql://alice:pw@db/team' })).toBe(false);
    expect(store.getState().team.statusError).toBe('Put the password in PGPASSWORD, not in --to');
  });

  it('opens the review when the store does not have a session yet, and pushes it with the findings the user kept', async () => {
    const push = vi.fn(async ({ confirm }: { keys: string[]; confirm: boolean; keep: string[] }) =>
      confirm ? result({ pushed: ['codex:a'] }) : result({ held: ['codex:a'], findings: [finding] }),
    );
    const fake = fakeClient({
      getTeamStatus: async () => status,
      listTeamSessions: async () => ({ sessions: [], matches: [], total: 0, problems: [] }),
      pushToTeam: push,
    });
    const store = createAppStore(fake.client);
    await store.getState().pushToTeam(['codex:a']);
    expect(store.getState().team.review).toEqual({ keys: ['codex:a'], held: ['codex:a'], findings: [finding], keep: [] });
    expect(store.getState().team.pushMessage).toBe('0 sessions pushed, 1 waiting for review.');
    store.getState().toggleTeamKeep('f1');
    await store.getState().confirmTeamPush();
    expect(push).toHaveBeenLastCalledWith({ keys: ['codex:a'], confirm: true, keep: ['f1'] });
    expect(store.getState().team.review).toBeNull();
    expect(store.getState().team.pushMessage).toBe('1 session pushed.');
  });
});
