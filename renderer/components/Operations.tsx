// The operations tab: each recorded operation with its status, VCS facts and detail JSON.
import { useState } from 'react';
import type { Operation, VcsFacts } from '../../shared/session.ts';
import { formatTimestamp, formatUsage, formatValue, shortSha } from '../format.ts';
import { useAppStore } from '../store-context.ts';

const PAGE = 200;

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

function Vcs({ vcs }: { vcs: VcsFacts }) {
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
              <span className="vcs-letter vcs-R">R</span> <span className="mono">{r.from ?? '?'} → {r.to}</span>
            </li>
          ))}
        </ul>
      )}
      {vcs.appliedSha && (
        <div>
          Applied <span className="mono" title={vcs.appliedSha}>{shortSha(vcs.appliedSha)}</span>
        </div>
      )}
      {vcs.restoredSha && (
        <div>
          Restored <span className="mono" title={vcs.restoredSha}>{shortSha(vcs.restoredSha)}</span>
        </div>
      )}
    </div>
  );
}

function OperationView({ op }: { op: Operation }) {
  const openSession = useAppStore((s) => s.openSession);
  const hasDetail = op.detail !== null && op.detail !== undefined;
  return (
    <article className="operation" data-testid="operation" data-type={op.type}>
      <header className="operation-header">
        <span className="badge">{op.type}</span>
        {op.name && <strong>{op.name}</strong>}
        {op.status && <span className={`status status-${op.status}`}>{op.status}</span>}
        {op.timestamp && (
          <time dateTime={op.timestamp} title={op.timestamp}>
            {formatTimestamp(op.timestamp)}
          </time>
        )}
        {op.latencyMs != null && <span className="muted">{Math.round(op.latencyMs)} ms</span>}
        {op.usage && <span className="muted usage">{formatUsage(op.usage)}</span>}
        {op.cost && <span className="muted">${op.cost.usd.toFixed(4)}</span>}
      </header>
      {op.vcs && <Vcs vcs={op.vcs} />}
      {op.childSessionKey && (
        <button type="button" className="link-button" onClick={() => void openSession(op.childSessionKey as string)}>
          Open sub-session {op.childSessionKey}
        </button>
      )}
      {hasDetail && (
        <details className="block">
          <summary>Detail</summary>
          <pre>{formatValue(op.detail)}</pre>
        </details>
      )}
    </article>
  );
}

export function Operations({ operations }: { operations: Operation[] }) {
  const [shown, setShown] = useState(PAGE);
  if (operations.length === 0) return <p className="muted">No operations recorded.</p>;
  return (
    <div className="operations">
      {operations.slice(0, shown).map((op) => (
        <OperationView key={op.id} op={op} />
      ))}
      {operations.length > shown && (
        <button type="button" className="more" onClick={() => setShown(shown + PAGE)}>
          Show more ({operations.length - shown} remaining)
        </button>
      )}
    </div>
  );
}
