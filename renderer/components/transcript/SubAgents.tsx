// Sub-agent sessions of the open session (clickable), the way back from a sub-agent to its parent, and from a fork to the session it was forked from.
import { useEffect } from 'react';
import type { Session, SessionSummary } from '../../../shared/session.ts';
import { formatCount, formatLabel, plural } from '../../format.ts';
import { useAppStore } from '../../store/store-context.ts';

export function SubAgents({ session }: { session: Session }) {
  const related = useAppStore((s) => s.related);
  const notFound = useAppStore((s) => s.relatedNotFound);
  const relatedError = useAppStore((s) => s.relatedError);
  const loadRelated = useAppStore((s) => s.loadRelated);
  const openSession = useAppStore((s) => s.openSession);
  const keys = session.childKeys;

  // Re-runs when the cache is reset after a change on disk; keys already known return at once.
  useEffect(() => {
    if (keys.length > 0) void loadRelated(keys);
  }, [keys, loadRelated, related]);

  if (keys.length === 0) return null;
  return (
    <section className="subagents" data-testid="subagents" aria-label="Sub-agents">
      <h2 className="section-title">
        Sub-agents <span className="muted">({keys.length})</span>
      </h2>
      <ul className="subagent-list">
        {keys.map((key) => {
          const s = related[key];
          // A sub-agent the session names but the library does not have (its file is gone, or was never written): nothing to open.
          if (!s && notFound[key])
            return (
              <li key={key}>
                <span className="subagent-row subagent-missing" data-testid="subagent-missing" data-key={key}>
                  <span className="subagent-title">{key}</span>
                  <span className="muted">not in the library: its file is gone or was never written</span>
                </span>
              </li>
            );
          return (
            <li key={key}>
              <button type="button" className="subagent-row" data-testid="subagent" data-key={key} onClick={() => void openSession(key)}>
                <span className="subagent-title">{s?.title ?? key}</span>
                {s && (
                  <span className="muted">
                    {formatLabel(s.format)} · {plural(s.messageCount, 'message')} · {plural(s.toolCallCount, 'tool call')}
                    {s.totalTokens != null ? ` · ${formatCount(s.totalTokens)} tokens` : ''}
                  </span>
                )}
                {s && <span className={`status status-${s.outcomeStatus ?? s.status}`}>{s.outcomeStatus ?? s.status}</span>}
              </button>
            </li>
          );
        })}
      </ul>
      {relatedError && <p className="error-text">Could not load the sub-agent summaries: {relatedError}</p>}
    </section>
  );
}

/** The summary of the session `key` names (the list's, or fetched with the related ones, which the list hides), once known. */
function useLinkedSession(key: string): SessionSummary | undefined {
  const linked = useAppStore((s) => s.related[key] ?? s.sessions.find((x) => x.key === key));
  const related = useAppStore((s) => s.related);
  const loadRelated = useAppStore((s) => s.loadRelated);
  const known = linked !== undefined;
  useEffect(() => {
    if (!known) void loadRelated([key]);
  }, [known, key, loadRelated, related]);
  return linked;
}

export function ParentLink({ parentKey }: { parentKey: string }) {
  const parent = useLinkedSession(parentKey);
  const openSession = useAppStore((s) => s.openSession);
  return (
    <button type="button" className="link-button parent-link" data-testid="parent-link" onClick={() => void openSession(parentKey)}>
      ← Sub-agent of {parent?.title ?? parentKey}
    </button>
  );
}

/**
 * The session this one was forked or branched from (`extra.forkedFrom`, a session key): a link once it is found in
 * the library, its key as plain text while it is not (a fork of a session that is gone, or never read here).
 */
export function ForkLink({ forkedFrom }: { forkedFrom: string }) {
  const origin = useLinkedSession(forkedFrom);
  const openSession = useAppStore((s) => s.openSession);
  if (!origin)
    return (
      <p className="muted fork-origin" data-testid="fork-origin">
        Forked from {forkedFrom} (not in the library)
      </p>
    );
  return (
    <button type="button" className="link-button parent-link" data-testid="fork-link" onClick={() => void openSession(forkedFrom)}>
      ← Forked from {origin.title}
    </button>
  );
}
