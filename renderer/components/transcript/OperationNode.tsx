// One node of the operations tree: type, name, status, latency, tokens, cost, VCS changes and its detail.
import { memo } from 'react';
import type { Operation, VcsFacts } from '../../../shared/session.ts';
import { useExpanded, type Expansion } from './expansion.ts';
import { formatCost, formatDuration, formatTimestamp, formatUsage, formatValue, shortSha } from '../../format.ts';
import { statusTone } from './op-tree.ts';
import { useAppStore } from '../../store/store-context.ts';
import { clipOutput } from './tool-summary.ts';
import { RawButton, RawRecordPanel } from './RawRecord.tsx';

function PathList({ letter, paths }: { letter: string; paths: string[] }) {
  return (
    <>
      {paths.map((p) => (
        <li key={`${letter}:${p}`}>
          <span className={`vcs-letter vcs-${letter}`}>{letter}</span> <span className="mono">{p}</span>
        </li>
      ))}
    </>
  );
}

export function Vcs({ vcs }: { vcs: VcsFacts }) {
  const { A, M, D, R } = vcs.staged;
  return (
    <div className="vcs">
      {A.length + M.length + D.length + R.length > 0 && (
        <ul className="vcs-files">
          <PathList letter="A" paths={A} />
          <PathList letter="M" paths={M} />
          <PathList letter="D" paths={D} />
          {R.map((r) => (
            <li key={`R:${r.from}:${r.to}`}>
              <span className="vcs-letter vcs-R">R</span>{' '}
              <span className="mono">
                {r.from ?? '?'} → {r.to}
              </span>
            </li>
          ))}
        </ul>
      )}
      {vcs.appliedSha && (
        <div>
          Applied{' '}
          <span className="mono" title={vcs.appliedSha}>
            {shortSha(vcs.appliedSha)}
          </span>
        </div>
      )}
      {vcs.restoredSha && (
        <div>
          Restored{' '}
          <span className="mono" title={vcs.restoredSha}>
            {shortSha(vcs.restoredSha)}
          </span>
        </div>
      )}
    </div>
  );
}

/** Small flat details (a test run's command and counts, a short note) read best inline. */
export function inlineDetail(detail: unknown): Array<[string, string]> | string | null {
  if (typeof detail === 'string') return detail.length <= 160 && !detail.includes('\n') ? detail : null;
  if (!detail || typeof detail !== 'object' || Array.isArray(detail)) return null;
  const entries = Object.entries(detail as Record<string, unknown>);
  if (entries.length === 0 || entries.length > 8) return null;
  const flat: Array<[string, string]> = [];
  for (const [k, v] of entries) {
    if (v !== null && typeof v === 'object') return null;
    flat.push([k, v === null ? 'null' : String(v)]);
  }
  return flat.reduce((n, [k, v]) => n + k.length + v.length, 0) <= 200 ? flat : null;
}

function Detail({ id, detail, expansion }: { id: string; detail: unknown; expansion: Expansion }) {
  const [open, toggle] = useExpanded(expansion, id);
  const [all, toggleAll] = useExpanded(expansion, `${id}:all`);
  if (detail === null || detail === undefined) return null;
  const inline = inlineDetail(detail);
  if (typeof inline === 'string') return <div className="op-detail-inline">{inline}</div>;
  if (inline) {
    return (
      <div className="op-detail-inline chips">
        {inline.map(([k, v]) => (
          <span key={k} className="chip">
            {k}={v}
          </span>
        ))}
      </div>
    );
  }
  const text = open ? formatValue(detail) : '';
  const clipped = open ? clipOutput(text, 80, 8000) : null;
  return (
    <div className="op-detail">
      <button type="button" className="link-button" aria-expanded={open} onClick={toggle}>
        {open ? '▾ Detail' : '▸ Detail'}
      </button>
      {clipped && <pre>{all ? text : clipped.text}</pre>}
      {clipped && clipped.hiddenChars > 0 && (
        <button type="button" className="link-button show-all" onClick={toggleAll}>
          {all ? 'Show less' : `Show all (${clipped.hiddenLines} more lines)`}
        </button>
      )}
    </div>
  );
}

export const OperationNode = memo(function OperationNode(props: {
  op: Operation;
  depth: number;
  childCount: number;
  collapsed: boolean;
  onToggle(id: string): void;
  expansion: Expansion;
}) {
  const { op, depth, childCount, collapsed, onToggle, expansion } = props;
  const openSession = useAppStore((s) => s.openSession);
  const tone = statusTone(op.status);
  return (
    <div className="op-node" data-testid="op-node" data-depth={depth} data-status={tone} style={{ paddingLeft: depth * 20 }}>
      <article className={`operation tone-${tone}`} data-testid="operation" data-type={op.type}>
        <header className="operation-header">
          {childCount > 0 ? (
            <button
              type="button"
              className="tree-toggle"
              aria-expanded={!collapsed}
              aria-label={collapsed ? `Expand ${childCount} children` : 'Collapse'}
              onClick={() => onToggle(op.id)}
            >
              {collapsed ? '▸' : '▾'}
            </button>
          ) : (
            depth > 0 && <span className="tree-leaf" aria-hidden="true" />
          )}
          <span className="badge">{op.type}</span>
          {op.name && <strong className="op-name">{op.name}</strong>}
          {op.status && <span className={`status tone-text-${tone}`}>{op.status}</span>}
          {collapsed && childCount > 0 && <span className="muted">{childCount} nested</span>}
          {op.timestamp && (
            <time dateTime={op.timestamp} title={op.timestamp} className="muted">
              {formatTimestamp(op.timestamp)}
            </time>
          )}
          {op.latencyMs != null && <span className="muted">{formatDuration(op.latencyMs)}</span>}
          {op.usage && <span className="muted usage">{formatUsage(op.usage)}</span>}
          {op.cost && <span className="muted cost">{formatCost(op.cost)}</span>}
          <span className="spacer" />
          <RawButton ownerId={`op:${op.id}`} origin={op.origin} />
        </header>
        {op.vcs && <Vcs vcs={op.vcs} />}
        {op.childSessionKey && (
          <button type="button" className="link-button" onClick={() => void openSession(op.childSessionKey as string)}>
            Open sub-agent session {op.childSessionKey}
          </button>
        )}
        <Detail id={`op:${op.id}`} detail={op.detail} expansion={expansion} />
        <RawRecordPanel ownerId={`op:${op.id}`} />
      </article>
    </div>
  );
});
