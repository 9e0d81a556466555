// The detail header: identity, project, outcome, model, times, usage and cost totals, format extras, sub-agents.
import type { ReactNode } from 'react';
import { relativeTime } from '../../shared/relative-time.ts';
import type { Session } from '../../shared/session.ts';
import { formatCost, formatCount, formatLabel, formatTimestamp, formatUsage, formatValue, shortSha } from '../format.ts';
import { sessionTotals } from '../session-totals.ts';
import { withSubAgents } from '../subagent-totals.ts';
import { useAppStore } from '../store/store-context.ts';
import { ExtraFacts } from './SessionFacts.tsx';
import { ParentLink, SubAgents } from './transcript/SubAgents.tsx';
import { VaultActions } from './vault/VaultActions.tsx';
import { BundleShareButton } from './bundle/BundleButtons.tsx';

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

function UsageTotals({ session }: { session: Session }) {
  const totals = sessionTotals(session);
  const from = totals.source === 'messages' ? ' (sum of messages)' : totals.source === 'operations' ? ' (sum of operations)' : '';
  return (
    <div className="usage-totals" data-testid="usage-totals">
      <span>
        <span className="muted">Tokens </span>
        {totals.usage ? formatUsage(totals.usage) : '—'}
      </span>
      <span>
        <span className="muted">Cost </span>
        {totals.usage && !totals.cost ? <span title="No price is known for this session's models">unpriced</span> : formatCost(totals.cost)}
      </span>
      {from && <span className="muted">{from}</span>}
      {session.childKeys.length > 0 && <WithSubAgentsTotal session={session} own={totals} />}
    </div>
  );
}

/** The session's own figures above; this adds its sub-agents' (as listed), since a parent's cost includes theirs. */
function WithSubAgentsTotal({ session, own }: { session: Session; own: ReturnType<typeof sessionTotals> }) {
  const related = useAppStore((s) => s.related);
  const total = withSubAgents(
    own,
    session.childKeys.map((k) => related[k]),
  );
  return (
    <span data-testid="usage-with-subagents">
      <span className="muted">With sub-agents </span>
      {total.tokens !== null ? `${formatCount(total.tokens)} tokens` : '—'} · {formatCost(total.cost)}
      {total.missing > 0 && (
        <span className="muted">
          {' '}
          (≥; {total.missing} sub-agent{total.missing === 1 ? '' : 's'} not counted yet)
        </span>
      )}
    </span>
  );
}

export function DetailHeader({ session, onShowWarnings }: { session: Session; onShowWarnings(): void }) {
  const { project, outcome, model } = session;
  const params = model ? Object.entries(model.parameters) : [];
  const warningTotal = session.warnings.reduce((n, w) => n + w.count, 0);
  return (
    <header className="detail-header">
      {session.parentKey && <ParentLink parentKey={session.parentKey} />}
      <div className="detail-title-line">
        <h1 data-testid="detail-title">{session.title}</h1>
        <span className={`badge format format-${session.format}`}>
          {formatLabel(session.format)}
          {session.formatVersion ? ` ${session.formatVersion}` : ''}
        </span>
        <span className={`badge status status-${session.status}`}>{session.status}</span>
        {session.warnings.length > 0 && (
          <button
            type="button"
            className="badge warning-badge"
            data-testid="warning-badge"
            title={`${session.warnings.length} kinds of reader warning, ${warningTotal} in all — show them`}
            onClick={onShowWarnings}
          >
            ⚠ {session.warnings.length}
          </button>
        )}
        <BundleShareButton sessionKey={session.key} />
      </div>
      <VaultActions key={session.key} session={session} />
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
        {session.toolVersion && <Field label="Tool version">{session.toolVersion}</Field>}
      </dl>
      <UsageTotals session={session} />
      <ExtraFacts extra={session.extra} />
      {session.summary?.overview && <p className="overview">{session.summary.overview}</p>}
      <SubAgents session={session} />
    </header>
  );
}
