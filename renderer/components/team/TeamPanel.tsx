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
  const openSession = useAppStore((s) => s.openSession);
  const openKey = useAppStore((s) => s.open?.key ?? null);
  const [editing, setEditing] = useState(false);
  useEffect(() => void load(), [load]);
  const status = team.status;
  // Only this machine's own sessions are pushed: a team session open in the detail is not.
  const canPush = openKey !== null && !splitTeamKey(openKey) && status?.store && (status.role === 'member' || status.role === 'admin');

  // `serve --team`: the whole window is the team store already.
  if (status?.served) return null;
  return (
    <section className="roots-panel team-panel" data-testid="team-panel" aria-label="Team">
      <header className="panel-header">
        <span>Team{status?.store ? ` (${team.total})` : ''}</span>
        <button type="button" className="link-button" data-testid="team-settings-toggle" onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
          {editing ? 'Close' : 'Settings…'}
        </button>
      </header>
      {editing && <TeamSettingsForm onSaved={() => setEditing(false)} />}
      {team.statusError && !editing && <p className="error-text">{team.statusError}</p>}
      {status && !status.store && !editing && <p className="muted">No team store. Set one in Settings… to see your team's sessions and push yours.</p>}
      {status?.store && (
        <>
          <p className="muted small" data-testid="team-status">
            {status.error ?? `${status.account ?? '?'} (${status.role ?? '?'}) · this machine: ${status.machine}${status.autoPush ? ' · auto-push on' : ''}`}
            {status.lastPush?.error && <span className="error-text"> Last push: {status.lastPush.error}</span>}
          </p>
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
              <TeamRow key={s.key} s={s} open={s.key === openKey} onOpen={(key) => void openSession(key)} />
            ))}
          </ul>
        </>
      )}
      <TeamPushReview />
    </section>
  );
}
