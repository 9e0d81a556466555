// Settings: the folders read for sessions, each with its counts, "Scan again" and "Remove"; "Scan all again" and the add-folder form.
import type { Root } from '../../../shared/api.ts';
import { formatLabel } from '../../format.ts';
import { useAppStore } from '../../store/store-context.ts';
import { AddRootForm } from '../AddRootForm.tsx';

const KIND_LABEL: Record<Root['kind'], string> = { default: 'found', user: 'added', demo: 'demo' };

function FolderRow({ root }: { root: Root }) {
  const rescanning = useAppStore((s) => s.rescanning);
  const rescanRoots = useAppStore((s) => s.rescanRoots);
  const removeRoot = useAppStore((s) => s.removeRoot);
  const busy = rescanning !== null;
  const kind = root.format ? `${KIND_LABEL[root.kind]} · ${formatLabel(root.format)}` : KIND_LABEL[root.kind];
  return (
    <tr data-testid="settings-folder" data-kind={root.kind}>
      <th scope="row" className="mono settings-path">
        <bdi>{root.path}</bdi>
        {(root.error || !root.exists) && <div className="error-text">{root.error ?? 'Folder does not exist.'}</div>}
      </th>
      <td>{kind}</td>
      <td className="num">
        {root.sessionCount.toLocaleString()}
        {root.unreadableCount > 0 && <span className="warn-text"> · {root.unreadableCount.toLocaleString()} unreadable</span>}
      </td>
      <td className="settings-actions">
        <button type="button" className="small" disabled={busy} onClick={() => void rescanRoots(root.id)} aria-label={`Scan again: ${root.path}`}>
          {rescanning === root.id ? 'Scanning…' : 'Scan again'}
        </button>
        <button type="button" className="small danger" onClick={() => void removeRoot(root.id)} aria-label={`Remove ${root.path}`}>
          Remove
        </button>
      </td>
    </tr>
  );
}

export function FolderSettings() {
  const roots = useAppStore((s) => s.roots);
  const rootsError = useAppStore((s) => s.rootsError);
  const rescanning = useAppStore((s) => s.rescanning);
  const rescanError = useAppStore((s) => s.rescanError);
  const rescanRoots = useAppStore((s) => s.rescanRoots);
  return (
    <section className="settings-section" aria-labelledby="settings-folders">
      <div className="settings-head">
        <h2 id="settings-folders">Folders</h2>
        <button type="button" data-testid="rescan-all" disabled={rescanning !== null || roots.length === 0} onClick={() => void rescanRoots()}>
          {rescanning === 'all' ? 'Scanning…' : 'Scan all again'}
        </button>
      </div>
      <p className="muted settings-note">
        Every folder is watched for changes; scanning again reads what changed while the app was not running or the folder was not reachable.
      </p>
      {roots.length > 0 ? (
        <table className="grid settings-table" data-testid="settings-folders">
          <thead>
            <tr>
              <th scope="col">Folder</th>
              <th scope="col">Kind</th>
              <th scope="col" className="num">
                Sessions
              </th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {roots.map((r) => (
              <FolderRow key={r.id} root={r} />
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No folders yet.</p>
      )}
      {(rootsError ?? rescanError) && (
        <p className="error-text" role="alert">
          {rootsError ?? rescanError}
        </p>
      )}
      <AddRootForm inputId="settings-add-root-input" />
    </section>
  );
}
