// The Summary card at the top of the detail view: overview, decisions, outcomes, open items and tags, who wrote it and when; editable by hand (a team session's only by a member or admin of the team store).
import { useEffect, useRef, useState } from 'react';
import { relativeTime } from '../../../shared/relative-time.ts';
import type { SummaryRecord } from '../../../shared/summary-api.ts';
import { formatTimestamp } from '../../format.ts';
import { useAppStore } from '../../store/store-context.ts';
import { useSessionAccess } from '../team/team-access.ts';
import { SummaryEditor } from './SummaryEditor.tsx';
import './summary.css';

function List({ title, items, open }: { title: string; items: string[]; open?: boolean }) {
  if (!items.length) return null;
  return (
    <div className="summary-list">
      <h3>{title}</h3>
      <ul>
        {items.map((item, i) => (
          <li key={i}>
            {open && <span aria-hidden="true">☐ </span>}
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "by mcp: Claude Code, 2 hours ago", and where it comes from when it is the session file's own. */
function Byline({ summary }: { summary: SummaryRecord }) {
  return (
    <span className="summary-byline muted" data-testid="summary-byline">
      by <span data-testid="summary-author">{summary.author}</span>
      {summary.updatedAt && (
        <>
          {', '}
          <time dateTime={summary.updatedAt} title={formatTimestamp(summary.updatedAt)}>
            {relativeTime(summary.updatedAt)}
          </time>
        </>
      )}
      {summary.source === 'session' && ' · from the session file'}
    </span>
  );
}

/** Fetched when the session opens; the store fetches it again when the session or its summary changes on disk. */
export function SummaryCard({ sessionKey }: { sessionKey: string }) {
  const view = useAppStore((s) => (s.summaryView?.key === sessionKey ? s.summaryView : null));
  const loadSummary = useAppStore((s) => s.loadSummary);
  const saveSummary = useAppStore((s) => s.saveSummary);
  const [editing, setEditing] = useState(false);
  // A viewer of the team store reads the team's summaries and is offered no writing.
  const { canWrite } = useSessionAccess(sessionKey);
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  // Mounted per session (keyed by it), so a form never outlives the session it was opened on.
  useEffect(() => {
    void loadSummary(sessionKey);
  }, [sessionKey, loadSummary]);
  // Leaving the form puts the focus back on the button that opened it.
  useEffect(() => {
    if (!editing && returnFocus.current) {
      returnFocus.current = false;
      editButton.current?.focus();
    }
  }, [editing]);

  const close = () => {
    returnFocus.current = true;
    setEditing(false);
  };
  const summary = view?.summary ?? null;

  if (editing && canWrite) {
    return (
      <section className="summary-card editing" aria-label="Summary" data-testid="summary-card">
        <SummaryEditor
          summary={summary}
          saving={view?.saving ?? false}
          error={view?.error ?? null}
          onCancel={close}
          onSave={(draft) => void saveSummary(sessionKey, draft).then((saved) => saved && close())}
        />
      </section>
    );
  }
  if (!summary) {
    return (
      <section className="summary-card empty" aria-label="Summary" data-testid="summary-card" aria-busy={view?.loading ?? true}>
        <span className="muted">{view?.loading !== false ? 'Summary…' : 'No summary yet.'}</span>
        {canWrite && (
          <button
            type="button"
            ref={editButton}
            className="link-button"
            onClick={() => setEditing(true)}
            disabled={view?.loading !== false}
            data-testid="summary-edit"
          >
            Write a summary
          </button>
        )}
        {view?.error && (
          <span className="error-text" role="alert">
            {view.error}
          </span>
        )}
      </section>
    );
  }
  return (
    <section className="summary-card" aria-labelledby="summary-heading" data-testid="summary-card" data-source={summary.source}>
      <header className="summary-head">
        <h2 id="summary-heading">Summary</h2>
        <Byline summary={summary} />
        <span className="summary-actions">
          {canWrite && summary.source === 'vault' && (
            <button
              type="button"
              className="link-button"
              onClick={() => void saveSummary(sessionKey, null)}
              disabled={view?.saving}
              data-testid="summary-remove"
            >
              Remove
            </button>
          )}
          {canWrite && (
            <button type="button" ref={editButton} onClick={() => setEditing(true)} data-testid="summary-edit" aria-label="Edit the summary">
              Edit
            </button>
          )}
        </span>
      </header>
      {summary.overview && (
        <p className="summary-overview" data-testid="summary-overview">
          {summary.overview}
        </p>
      )}
      <div className="summary-lists">
        <List title="Key decisions" items={summary.decisions} />
        <List title="Outcomes" items={summary.outcomes} />
        <List title="Open items" items={summary.openItems} open />
      </div>
      {summary.tags.length > 0 && (
        <div className="summary-tags" data-testid="summary-tags" role="group" aria-label="Summary tags">
          {summary.tags.map((t) => (
            <span key={t} className="tag-chip summary-tag">
              {t}
            </span>
          ))}
        </div>
      )}
      {view?.error && (
        <p className="error-text" role="alert">
          {view.error}
        </p>
      )}
    </section>
  );
}
