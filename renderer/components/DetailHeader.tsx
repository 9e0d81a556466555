// The detail header, compact: the title line, one line of facts (project, branch, model, when, outcome, tokens and cost), the vault strip, sub-agents folded.
import { relativeTime } from '../../shared/relative-time.ts';
import type { Session } from '../../shared/session.ts';
import { totalTokens } from '../../shared/summarize.ts';
import { formatCost, formatCount, formatLabel, formatTimestamp, formatUsage, plural } from '../format.ts';
import { sessionTotals } from '../session-totals.ts';
import { withSubAgents } from '../subagent-totals.ts';
import { useAppStore } from '../store/store-context.ts';
import { ForkLink, ParentLink, SubAgents } from './transcript/SubAgents.tsx';
import { VaultActions } from './vault/VaultActions.tsx';
import { BundleShareButton } from './bundle/BundleButtons.tsx';

function UsageTotals({ session }: { session: Session }) {
  const totals = sessionTotals(session);
  // Every bucket, reasoning too: the same sum as the list's row and the total with sub-agents (shared/summarize.ts).
  const tokens = totalTokens(totals.usage);
  return (
    <span className="meta-item usage-totals" data-testid="usage-totals" title={totals.usage ? formatUsage(totals.usage) : 'No token counts recorded'}>
      <span>{tokens !== null ? `${formatCount(tokens)} tokens` : 'no tokens recorded'}</span>
      {/* A cost beside the tokens; with neither recorded, nothing more (not a dash for the cost). */}
      {(totals.usage || totals.cost) && (
        <span>
          {' · '}
          {totals.usage && !totals.cost ? <span title="No price is known for this session's models">unpriced</span> : formatCost(totals.cost)}
        </span>
      )}
      {session.childKeys.length > 0 && <WithSubAgentsTotal session={session} own={totals} />}
    </span>
  );
}

/** The session's own figures above; this adds its sub-agents' (as listed), since a parent's cost includes theirs. */
function WithSubAgentsTotal({ session, own }: { session: Session; own: ReturnType<typeof sessionTotals> }) {
  const related = useAppStore((s) => s.related);
  const notFound = useAppStore((s) => s.relatedNotFound);
  const total = withSubAgents(
    own,
    session.childKeys.map((k) => related[k]),
  );
  // Of the sub-agents not counted: those the library does not have (their file is gone), and those still being looked up.
  const gone = session.childKeys.filter((k) => !related[k] && notFound[k]).length;
  const pending = total.missing - gone;
  const uncounted = [gone > 0 ? `${plural(gone, 'sub-agent')} not in the library` : '', pending > 0 ? `${plural(pending, 'sub-agent')} not counted yet` : '']
    .filter(Boolean)
    .join(', ');
  // No sub-agent counted: a total "with sub-agents" would only repeat the session's own figures.
  if (!session.childKeys.some((k) => related[k]))
    return (
      <span data-testid="usage-with-subagents" className="muted" title="Their tokens and cost are not in these totals">
        {' · '}
        {uncounted}
      </span>
    );
  // Neither the session nor its sub-agents recorded a token: said once, not as dashes.
  const nothing = total.tokens === null && !total.cost && total.missing === 0;
  return (
    <span data-testid="usage-with-subagents">
      <span className="muted"> · with sub-agents{nothing ? ': none recorded either' : ' '}</span>
      {!nothing && `${total.tokens !== null ? `${formatCount(total.tokens)} tokens` : '—'} · ${formatCost(total.cost)}`}
      {total.missing > 0 && <span className="muted"> (at least: {uncounted})</span>}
    </span>
  );
}

/** One line under the title: where, which branch and model, when, how it ended, and what it cost. */
function MetaLine({ session }: { session: Session }) {
  const { project, outcome, model } = session;
  const updated = session.updatedAt ?? session.closedAt;
  return (
    <div className="detail-meta" data-testid="detail-meta">
      {(project.name || project.path) && (
        <span className="meta-item" title={project.path ?? undefined}>
          {project.name ?? project.path}
        </span>
      )}
      {project.branch && (
        <span className="meta-item" data-testid="detail-branch" title="Branch">
          ⎇ {project.branch}
        </span>
      )}
      {model?.name && (
        <span className="meta-item" title={[model.provider, model.name].filter(Boolean).join(' / ')}>
          {model.name}
        </span>
      )}
      {updated && (
        <time className="meta-item" dateTime={updated} title={formatTimestamp(updated)}>
          {relativeTime(updated)}
        </time>
      )}
      {outcome && (
        <span className="meta-item" data-testid="detail-outcome" title={outcome.summary ?? undefined}>
          <span className={`status status-${outcome.status}`}>{outcome.status}</span>
          {outcome.summary && <span className="meta-summary"> — {outcome.summary}</span>}
        </span>
      )}
      <UsageTotals session={session} />
    </div>
  );
}

/**
 * The compact header: the title line, one line of facts, the vault's strip and the sub-agents folded; every other
 * fact, the format's extras, tags and note are on the Info tab, so the conversation starts near the top.
 */
export function DetailHeader({ session, onShowWarnings }: { session: Session; onShowWarnings(): void }) {
  const warningTotal = session.warnings.reduce((n, w) => n + w.count, 0);
  return (
    <header className="detail-header">
      {session.parentKey && <ParentLink parentKey={session.parentKey} />}
      {!session.parentKey && typeof session.extra.forkedFrom === 'string' && session.extra.forkedFrom.includes(':') && (
        <ForkLink forkedFrom={session.extra.forkedFrom} />
      )}
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
      <MetaLine session={session} />
      <VaultActions key={session.key} session={session} />
      <SubAgents session={session} />
    </header>
  );
}
