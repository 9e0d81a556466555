// The Sources panel: every root with its counts and errors, a remove button, and the add-folder form.
import type { Root, UnreadableReason } from '../../shared/api.ts';
import { formatLabel, plural } from '../format.ts';
import { useAppStore } from '../store/store-context.ts';
import { AddRootForm } from './AddRootForm.tsx';
import { useServedTeam } from './team/team-access.ts';

/** What each kind of failure means, in words. */
const REASON_LABEL: Record<UnreadableReason['code'], string> = {
  io_error: 'could not be read',
  empty_file: 'empty',
  invalid_json: 'not valid JSON',
  invalid_encoding: 'not valid text',
  wrong_shape: 'not in the shape the format has',
  unsupported_version: 'a version this app does not read',
  too_large: 'too large',
};

/**
 * How many files here look like sessions but cannot be read, and why: the count in the meta line (the counts grow
 * during a scan without moving anything), opened by the user to show each kind with one file's reason and name,
 * which opens that file's row (its detail says what is wrong and shows the raw text).
 */
function Unreadable({ root }: { root: Root }) {
  const openSession = useAppStore((s) => s.openSession);
  const reasons = root.unreadableReasons;
  const why = reasons.map((r) => `${r.count} ${REASON_LABEL[r.code]}: ${r.example} (${r.file})`).join('\n');
  return (
    <details className="root-count root-unreadable warn-text">
      <summary title={why || undefined}>{root.unreadableCount} unreadable</summary>
      {reasons.length > 0 && (
        <ul className="root-reasons" aria-label="Why files cannot be read">
          {reasons.map((r) => (
            <li key={r.code}>
              {r.count} {REASON_LABEL[r.code]}: <bdi>{r.example}</bdi>{' '}
              <button
                type="button"
                className="link-button root-example"
                data-testid="unreadable-example"
                title={`Open ${r.file}`}
                onClick={() => void openSession(r.key)}
              >
                {r.count > 1 ? 'e.g. ' : ''}
                <bdi>{r.file}</bdi>
              </button>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

function RootRow({ root, onRemove }: { root: Root; onRemove(id: string): void }) {
  const kind = root.format ? `${root.kind} · ${formatLabel(root.format)}` : root.kind;
  return (
    <li className={`root-row${root.error || !root.exists ? ' has-error' : ''}`} data-testid="root-row" data-kind={root.kind}>
      <div className="root-line">
        <span className="root-path" title={root.path}>
          <bdi>{root.path}</bdi>
        </span>
        <button type="button" className="icon-button" aria-label={`Remove ${root.path}`} title="Remove this source" onClick={() => onRemove(root.id)}>
          ×
        </button>
      </div>
      <div className="root-line root-meta">
        <span className="badge">{kind}</span>
        {/* The counts change while a root is scanned: the unreadable count sits at the line's end, so the
            session count growing ("1 session" to "2 sessions") moves nothing after it. */}
        <span className="root-count">{plural(root.sessionCount, 'session')}</span>
        {root.unreadableCount > 0 && <Unreadable root={root} />}
      </div>
      {!root.exists && !root.error && <div className="error-text">Folder does not exist.</div>}
      {root.error && <div className="error-text">{root.error}</div>}
    </li>
  );
}

export function SourcesPanel(props: { showAddForm: boolean; onToggleAdd(): void }) {
  const roots = useAppStore((s) => s.roots);
  const rootsError = useAppStore((s) => s.rootsError);
  const removeRoot = useAppStore((s) => s.removeRoot);
  // `serve --team` serves the team store alone: no folder of this machine is read, so none is offered to add.
  const servedTeam = useServedTeam();

  return (
    <section className="roots-panel" data-testid="roots-panel" aria-label="Sources">
      <header className="panel-header">
        <span>Sources ({roots.length})</span>
        {!servedTeam && (
          <button type="button" className="link-button" onClick={props.onToggleAdd} aria-expanded={props.showAddForm}>
            {props.showAddForm ? 'Cancel' : 'Add folder…'}
          </button>
        )}
      </header>
      {props.showAddForm && !servedTeam && <AddRootForm autoFocus onAdded={props.onToggleAdd} />}
      {rootsError && (
        <p className="error-text" role="alert">
          {rootsError}
        </p>
      )}
      <ul className="root-list">
        {roots.map((root) => (
          <RootRow key={root.id} root={root} onRemove={(id) => void removeRoot(id)} />
        ))}
      </ul>
      {roots.length === 0 && <p className="muted">{servedTeam ? 'Served from the team store: no folders of this machine.' : 'No sources yet.'}</p>}
    </section>
  );
}
