// The detail header: identity, project, outcome, model and its parameters, and the session's times.
import type { ReactNode } from 'react';
import { relativeTime } from '../../shared/relative-time.ts';
import type { Session } from '../../shared/session.ts';
import { formatLabel, formatTimestamp, formatUsage, formatValue, shortSha } from '../format.ts';
import { useAppStore } from '../store-context.ts';

function Field(props: { label: string; children: ReactNode; testId?: string; title?: string }) {
  return (
    <>
      <dt>{props.label}</dt>
      <dd data-testid={props.testId} title={props.title}>
        {props.children}
      </dd>
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

function SessionLink({ sessionKey }: { sessionKey: string }) {
  const openSession = useAppStore((s) => s.openSession);
  return (
    <button type="button" className="link-button mono" onClick={() => void openSession(sessionKey)}>
      {sessionKey}
    </button>
  );
}

export function DetailHeader({ session }: { session: Session }) {
  const { project, outcome, model } = session;
  const params = model ? Object.entries(model.parameters) : [];
  return (
    <header className="detail-header">
      <div className="detail-title-line">
        <h1 data-testid="detail-title">{session.title}</h1>
        <span className={`badge format format-${session.format}`}>
          {formatLabel(session.format)}
          {session.formatVersion ? ` ${session.formatVersion}` : ''}
        </span>
        <span className={`badge status status-${session.status}`}>{session.status}</span>
      </div>
      <dl className="facts">
        <Field label="ID">
          <span className="mono">{session.id}</span>
        </Field>
        <Field label="Project" title={project.path ?? undefined}>
          {project.name && project.path && project.name !== project.path ? `${project.name} — ` : ''}
          <span className="mono">{project.path ?? project.name ?? '—'}</span>
        </Field>
        <Field label="Branch" testId="detail-branch">
          {project.branch ?? '—'}
        </Field>
        <Field label="Head commit" title={project.headCommit ?? undefined}>
          <span className="mono">{shortSha(project.headCommit)}</span>
        </Field>
        <Field label="Outcome" testId="detail-outcome">
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
        {session.usage && <Field label="Tokens">{formatUsage(session.usage)}</Field>}
        {session.cost && (
          <Field label="Cost">
            ${session.cost.usd.toFixed(4)}
            {session.cost.estimated ? ' (estimated)' : ''}
          </Field>
        )}
        {session.toolVersion && <Field label="Tool version">{session.toolVersion}</Field>}
        {session.parentKey && (
          <Field label="Parent">
            <SessionLink sessionKey={session.parentKey} />
          </Field>
        )}
        {session.childKeys.length > 0 && (
          <Field label="Sub-sessions">
            {session.childKeys.map((k) => (
              <SessionLink key={k} sessionKey={k} />
            ))}
          </Field>
        )}
        {Object.entries(session.extra).map(([k, v]) => (
          <Field key={`extra-${k}`} label={k}>
            {formatValue(v)}
          </Field>
        ))}
      </dl>
      {session.summary?.overview && <p className="overview">{session.summary.overview}</p>}
    </header>
  );
}
