// What a team session's detail offers: none of the local vault's actions (keep, star, fork, delete), and to a viewer of the team store no writing of its notes, tags or summary.
import { describe, expect, it } from 'vitest';
import type { SummaryRecord } from '../../../shared/summary-api.ts';
import type { TeamStatus } from '../../../shared/team-api.ts';
import type { OpenSession } from '../../store/store.ts';
import { createAppStore } from '../../store/store.ts';
import type { VaultView } from '../../store/store-vault.ts';
import { fakeClient, session, summary, textMessage } from '../../test-fixtures.ts';
import { count, render } from '../../test-render.tsx';
import { Detail } from '../Detail.tsx';
import { SourcesPanel } from '../SourcesPanel.tsx';
import { SummaryCard } from '../summary/SummaryCard.tsx';
import { VaultActions, VaultNotes } from '../vault/VaultActions.tsx';
import { VaultPanelButton } from '../vault/VaultPanel.tsx';
import { sessionAccess } from './team-access.ts';

const TEAM_KEY = 'bob-desktop/claude-code:s1';
const LOCAL_KEY = 'claude-code:s1';
const msg = textMessage;
const opened = (key: string) => session({ key, title: 'Berth bookings', messages: [msg('m1', 'first'), msg('m2', 'second')] });
const openOf = (key: string): OpenSession => ({ key, session: opened(key), loading: false, error: null, errorCode: null, unreadable: null, removed: false });
const vaultView = (key: string): VaultView => ({
  key,
  status: { annotations: { starred: false, tags: ['flaky', 'ci'], note: 'Retry once', updatedAt: null }, keptPath: null, keptAt: null, liveSourcePath: null },
  loading: false,
  busy: null,
  error: null,
  noteSavedAt: null,
  resume: null,
  notice: null,
});
const teamStatus = (role: TeamStatus['role'], served: boolean): TeamStatus => ({
  store: 'postgres://db/team',
  machine: served ? '' : 'alice-app',
  autoPush: false,
  hasToken: !served,
  account: role ? 'someone' : null,
  role,
  error: null,
  lastPush: null,
  served,
});
/** The store's team view as the Team source (or `serve --team`) leaves it once the status is read. */
const teamState = (status: TeamStatus) => ({ team: { ...createAppStore(fakeClient({}).client).getState().team, status } });
const stateFor = (key: string, status: TeamStatus) => ({ open: openOf(key), sessions: [summary({ key })], vault: vaultView(key), ...teamState(status) });
const record: SummaryRecord = {
  overview: 'Late bookings landed on the next day.',
  decisions: [],
  outcomes: [],
  openItems: [],
  tags: [],
  source: 'vault',
  author: 'alice',
  updatedAt: null,
};

describe('sessionAccess', () => {
  it("gives a local session everything, a team session nothing of the vault's, and writing to members and admins only", () => {
    expect(sessionAccess(LOCAL_KEY, null)).toEqual({ team: false, canWrite: true });
    expect(sessionAccess(TEAM_KEY, 'member')).toEqual({ team: true, canWrite: true });
    expect(sessionAccess(TEAM_KEY, 'admin')).toEqual({ team: true, canWrite: true });
    expect(sessionAccess(TEAM_KEY, 'viewer')).toEqual({ team: true, canWrite: false });
    // Not known yet (the status not read, or the store out of reach): nothing is offered that would be refused.
    expect(sessionAccess(TEAM_KEY, null)).toEqual({ team: true, canWrite: false });
  });
});

describe("a team session's detail", () => {
  it('shows no Keep, Star or Delete on a team session (Resume still says where it is resumed), and all of them on a local one', () => {
    const team = render(<VaultActions session={opened(TEAM_KEY)} />, stateFor(TEAM_KEY, teamStatus('member', false)));
    for (const id of ['keep-button', 'star-toggle', 'delete-button']) expect(team).not.toContain(`data-testid="${id}"`);
    expect(team).toContain('data-testid="resume-button"');
    const local = render(<VaultActions session={opened(LOCAL_KEY)} />, stateFor(LOCAL_KEY, teamStatus('member', false)));
    for (const id of ['keep-button', 'star-toggle', 'delete-button', 'resume-button']) expect(local).toContain(`data-testid="${id}"`);
  });

  it('offers no "Fork from here" on a team session\'s messages', () => {
    expect(count(render(<Detail />, stateFor(TEAM_KEY, teamStatus('admin', true))), 'data-testid="fork-button"')).toBe(0);
    expect(count(render(<Detail />, stateFor(LOCAL_KEY, teamStatus('admin', false))), 'data-testid="fork-button"')).toBe(2);
  });

  it("shows a viewer the team's tags and note without editors, and a member the editors", () => {
    const viewer = render(<VaultNotes session={opened(TEAM_KEY)} />, stateFor(TEAM_KEY, teamStatus('viewer', true)));
    expect(viewer).toContain('data-readonly="true"');
    expect(count(viewer, 'data-testid="tag-chip"')).toBe(2);
    expect(viewer).toContain('data-testid="note-readonly">Retry once</p>');
    for (const id of ['tag-input', 'note-input']) expect(viewer).not.toContain(`data-testid="${id}"`);
    expect(viewer).not.toContain('aria-label="Remove tag flaky"');
    const member = render(<VaultNotes session={opened(TEAM_KEY)} />, stateFor(TEAM_KEY, teamStatus('member', true)));
    expect(member).toContain('data-testid="tag-input"');
    expect(member).toMatch(/<textarea[^>]*data-testid="note-input"[^>]*>Retry once<\/textarea>/);
  });

  it("shows a viewer the team's summary with no Edit or Remove, and no Write a summary when there is none", () => {
    const viewer = { ...teamState(teamStatus('viewer', true)) };
    const shown = render(<SummaryCard sessionKey={TEAM_KEY} />, {
      ...viewer,
      summaryView: { key: TEAM_KEY, summary: record, loading: false, saving: false, error: null },
    });
    expect(shown).toContain('data-testid="summary-overview">Late bookings landed on the next day.</p>');
    expect(shown).not.toContain('data-testid="summary-edit"');
    expect(shown).not.toContain('data-testid="summary-remove"');
    const none = render(<SummaryCard sessionKey={TEAM_KEY} />, {
      ...viewer,
      summaryView: { key: TEAM_KEY, summary: null, loading: false, saving: false, error: null },
    });
    expect(none).toContain('No summary yet.');
    expect(none).not.toContain('Write a summary');
    const member = render(<SummaryCard sessionKey={TEAM_KEY} />, {
      ...teamState(teamStatus('member', true)),
      summaryView: { key: TEAM_KEY, summary: record, loading: false, saving: false, error: null },
    });
    expect(member).toContain('data-testid="summary-edit"');
    expect(member).toContain('data-testid="summary-remove"');
  });

  it('has no Vault… button in serve --team, and keeps it in the app beside a Team source', () => {
    expect(render(<VaultPanelButton />, teamState(teamStatus('viewer', true)))).toBe('');
    expect(render(<VaultPanelButton />, teamState(teamStatus('member', false)))).toContain('data-testid="vault-panel-button"');
  });

  it('offers no "Add folder…" in serve --team (it reads no folder of this machine), and keeps it in the app', () => {
    const panel = (served: boolean) => render(<SourcesPanel showAddForm={false} onToggleAdd={() => {}} />, teamState(teamStatus('viewer', served)));
    expect(panel(true)).not.toContain('Add folder…');
    expect(panel(true)).toContain('Served from the team store');
    expect(panel(false)).toContain('Add folder…');
  });
});
