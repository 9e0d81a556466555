// The Info tab: every fact about the open session (ids, paths, times, model parameters, outcome, format extras), its usage in full, and its tags and note.
import type { ReactNode } from 'react';
import { relativeTime } from '../../shared/relative-time.ts';
import type { Session } from '../../shared/session.ts';
import { formatCost, formatTimestamp, formatUsage, formatValue, shortSha } from '../format.ts';
import { sessionTotals } from '../session-totals.ts';
import { ExtraFacts } from './SessionFacts.tsx';
import { VaultNotes } from './vault/VaultActions.tsx';

function Field(props: { label: string; children: ReactNode; title?: string }) {
  return (
    <>
      <dt>{props.label}</dt>
      <dd title={props.title}>{props.children}</dd>
    </>
  );
}

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">—</span>;
  return (
    <time dateTime={iso} title={iso}>
      {formatTimestamp(iso)} <span className="muted">({relativeTime(iso)})</span>
    </time>
  );
}

export function SessionInfo({ session }: { session: Session }) {
  const { project, outcome, model } = session;
  const params = model ? Object.entries(model.parameters) : [];
  const totals = sessionTotals(session);
  const from = totals.source === 'messages' ? ' (sum of messages)' : totals.source === 'operations' ? ' (sum of operations)' : '';
  return (
    <div className="session-info" data-testid="session-info">
      <dl className="facts">
        <Field label="ID">
          <span className="mono">{session.id}</span>
        </Field>
        <Field label="Project" title={project.path ?? undefined}>
          {project.name && project.path && project.name !== project.path ? `${project.name} — ` : ''}
          <span className="mono">{project.path ?? project.name ?? '—'}</span>
        </Field>
        <Field label="Branch">{project.branch ?? '—'}</Field>
        <Field label="Head commit" title={project.headCommit ?? undefined}>
          <span className="mono">{shortSha(project.headCommit)}</span>
        </Field>
        <Field label="Outcome">
          {outcome ? (
            <>
              <span className={`status status-${outcome.status}`}>{outcome.status}</span>
              {outcome.summary && <span> — {outcome.summary}</span>}
              {outcome.commitSha && (
                <span className="mono" title={outcome.commitSha}>
                  {' '}
                  @ {shortSha(outcome.commitSha)}
                </span>
              )}
            </>
          ) : (
            '—'
          )}
        </Field>
        <Field label="Model">
          {model ? [model.provider, model.name].filter(Boolean).join(' / ') || '—' : '—'}
          {params.length > 0 && (
            <span className="chips">
              {params.map(([k, v]) => (
                <span key={k} className="chip">
                  {k}={formatValue(v)}
                </span>
              ))}
            </span>
          )}
        </Field>
        <Field label="Tokens">
          {totals.usage ? formatUsage(totals.usage) : '—'}
          {from && <span className="muted">{from}</span>}
        </Field>
        <Field label="Cost">{totals.usage && !totals.cost ? 'unpriced (no price is known for its models)' : formatCost(totals.cost)}</Field>
        <Field label="Created">
          <When iso={session.createdAt} />
        </Field>
        <Field label="Updated">
          <When iso={session.updatedAt} />
        </Field>
        {session.closedAt && (
          <Field label="Closed">
            <When iso={session.closedAt} />
          </Field>
        )}
        {session.toolVersion && <Field label="Tool version">{session.toolVersion}</Field>}
      </dl>
      {session.summary?.overview && <p className="overview">{session.summary.overview}</p>}
      <ExtraFacts extra={session.extra} />
      <h2 className="section-title">Tags and note</h2>
      <VaultNotes session={session} />
    </div>
  );
}
