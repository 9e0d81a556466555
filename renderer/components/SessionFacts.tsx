// The small tabs (todos, effective configuration, reader warnings) and the format-specific facts block.
import type { ConfigEntry, Todo, Warning } from '../../shared/session.ts';
import { formatValue } from '../format.ts';

export function Todos({ todos }: { todos: Todo[] }) {
  if (todos.length === 0) return <p className="muted">No todos recorded.</p>;
  return (
    <ul className="todos">
      {todos.map((t, i) => (
        <li key={i} className={`todo todo-${t.status}`} data-testid="todo" data-status={t.status}>
          <input type="checkbox" checked={t.status === 'completed'} readOnly disabled aria-label={t.status} />
          <span className="todo-content">{t.status === 'in_progress' && t.activeForm ? t.activeForm : t.content}</span>
          <span className="badge">{t.status}</span>
        </li>
      ))}
    </ul>
  );
}

export function ConfigTable({ config }: { config: ConfigEntry[] }) {
  if (config.length === 0) return <p className="muted">No configuration recorded.</p>;
  return (
    <table className="grid">
      <thead>
        <tr>
          <th>Key</th>
          <th>Value</th>
          <th>Provenance</th>
        </tr>
      </thead>
      <tbody>
        {config.map((c, i) => (
          <tr key={`${c.key}:${i}`} data-testid="config-row">
            <td className="mono">{c.key}</td>
            <td className="mono pre">{formatValue(c.value)}</td>
            <td>{c.provenance ?? <span className="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Warnings({ warnings }: { warnings: Warning[] }) {
  if (warnings.length === 0) return <p className="muted">The reader reported no warnings.</p>;
  return (
    <>
      <p className="muted tab-note">What the reader met but could not take in, or took in with a guess. The session is shown as far as it was understood.</p>
      <table className="grid">
        <thead>
          <tr>
            <th>Code</th>
            <th>Message</th>
            <th className="num">Count</th>
          </tr>
        </thead>
        <tbody>
          {warnings.map((w) => (
            <tr key={`${w.code}:${w.message}`} data-testid="warning">
              <td className="mono">{w.code}</td>
              <td>{w.message}</td>
              <td className="num">×{w.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

const INLINE_MAX = 90;

function ExtraValue({ value }: { value: unknown }) {
  if (value === null || typeof value !== 'object') return <span className="mono">{formatValue(value) || '—'}</span>;
  const compact = JSON.stringify(value) ?? '';
  if (compact.length <= INLINE_MAX) return <span className="mono">{compact}</span>;
  return (
    <details className="extra-details">
      <summary className="mono">{`${compact.slice(0, INLINE_MAX - 1)}…`}</summary>
      <pre>{formatValue(value)}</pre>
    </details>
  );
}

/** Facts a format records that have no canonical field (workflow type, mode, language, ...). */
export function ExtraFacts({ extra }: { extra: Record<string, unknown> }) {
  const entries = Object.entries(extra);
  if (entries.length === 0) return null;
  return (
    <dl className="extra-facts" data-testid="extra-facts">
      {entries.map(([k, v]) => (
        <div key={k} className="extra-fact">
          <dt>{k}</dt>
          <dd>
            <ExtraValue value={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
