// The Team source in the sidebar: the team store's sessions (each marked with its machine) searched with the app's syntax, opened like local ones; a push action and the store's settings.
import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../../shared/session.ts';
import { splitTeamKey } from '../../../shared/team-keys.ts';
import { useAppStore } from '../../store/store-context.ts';
import { TeamPushReview } from './TeamPushReview.tsx';
import { TeamSettingsForm } from './TeamSettingsForm.tsx';
import './team.css';

function TeamRow({ s, open, onOpen }: { s: SessionSummary; open: boolean; onOpen(key: string): void }) {
  return (
    <li>
      <button type="button" className={`team-row${open ? ' open' : ''}`} data-testid="team-row" data-key={s.key} onClick={() => onOpen(s.key)}>
        <span className="team-row-title">{s.title}</span>
        <span className="badge row-machine" data-testid="row-machine">
          {s.machine}
        </span>
        {(s.projectName ?? s.projectPath) && <span className="muted small">{s.projectName ?? s.projectPath}</span>}
      </button>
    </li>
  );
}

export function TeamPanel() {
  const team = useAppStore((s) => s.team);
  const load = useAppStore((s) => s.loadTeam);
  const setQuery = useAppStore((s) => s.setTeamQuery);
  const push = useAppStore((s) => s.pushToTeam);
  const openTeamSession = useAppStore((s) => s.openTeamSession);
  const openKey = useAppStore((s) => s.open?.key ?? null);
  const [editing, setEditing] = useState(false);
  useEffect(() => void load(), [load]);
  const status = team.status;
  const line = team.statusError
    ? team.statusError
    : !status
      ? 'Team store…'
      : !status.store
        ? 'No team store: Settings… sets one.'
        : (status.error ?? `${status.account ?? '?'} (${status.role ?? '?'}) · this machine: ${status.machine}${status.autoPush ? ' · auto-push on' : ''}`);
  // Only this machine's own sessions are pushed: a team session open in the detail is not.
  const canPush = openKey !== null && !splitTeamKey(openKey) && status?.store && (status.role === 'member' || status.role === 'admin');

  // `serve --team`: the whole window is the team store already.
  if (status?.served) return null;
  return (
    <section className="roots-panel team-panel" data-testid="team-panel" aria-label="Team">
      <header className="panel-header">
        <span>Team{status?.store ? ` (${team.total.toLocaleString()}${team.totalCapped ? '+' : ''})` : ''}</span>
        <button type="button" className="link-button" data-testid="team-settings-toggle" onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
          {editing ? 'Close' : 'Settings…'}
        </button>
      </header>
      {editing && <TeamSettingsForm onSaved={() => setEditing(false)} />}
      {/* One line from the first frame on, whatever the status says once it comes: the sidebar does not move. */}
      <p className={`small team-line${team.statusError || status?.error ? ' error-text' : ' muted'}`} data-testid="team-status" title={line}>
        {line}
      </p>
      {status?.store && (
        <>
          {status.lastPush?.error && <p className="error-text small">Last push: {status.lastPush.error}</p>}
          <div className="team-actions">
            <input
              type="search"
              className="team-search"
              data-testid="team-search"
              aria-label="Search the team's sessions"
              placeholder="Search the team (machine:, user: too)"
              value={team.query}
              onChange={(e) => setQuery(e.target.value)}
            />
            <button
              type="button"
              data-testid="team-push"
              disabled={!canPush || team.pushing}
              onClick={() => openKey && void push([openKey])}
              title="Push the open session to the team store"
            >
              {team.pushing ? 'Pushing…' : 'Push'}
            </button>
          </div>
          {team.pushMessage && (
            <p className="muted small" role="status" data-testid="team-push-message">
              {team.pushMessage}
            </p>
          )}
          {team.error && <p className="error-text">{team.error}</p>}
          {team.problems.map((p) => (
            <p key={p} className="muted small">
              {p}
            </p>
          ))}
          <ul className="root-list team-list">
            {team.sessions.map((s) => (
              <TeamRow key={s.key} s={s} open={s.key === openKey} onOpen={(key) => void openTeamSession(key)} />
            ))}
          </ul>
        </>
      )}
      <TeamPushReview />
    </section>
  );
}
