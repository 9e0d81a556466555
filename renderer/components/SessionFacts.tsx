// The small tabs: todos (read-only checkboxes), effective configuration, and reader warnings.
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
  return (
    <table className="grid">
      <thead>
        <tr>
          <th>Code</th>
          <th>Message</th>
          <th>Count</th>
        </tr>
      </thead>
      <tbody>
        {warnings.map((w) => (
          <tr key={`${w.code}:${w.message}`} data-testid="warning">
            <td className="mono">{w.code}</td>
            <td>{w.message}</td>
            <td>{w.count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
