// The vault's trash in the Vault panel: what was deleted, when, and a Restore button for each.
import { relativeTime } from '../../../shared/relative-time.ts';
import { formatTimestamp } from '../../format.ts';
import { useAppStore } from '../../store/store-context.ts';

export function VaultTrash() {
  const panel = useAppStore((s) => s.vaultPanel);
  const restore = useAppStore((s) => s.restoreTrashed);
  const openSession = useAppStore((s) => s.openSession);
  const trash = panel.trash;

  return (
    <section className="vault-section" data-testid="trash">
      <h3>Trash</h3>
      {panel.trashError && (
        <p className="error-text" role="alert">
          {panel.trashError}
        </p>
      )}
      {panel.restoredKey && (
        <p className="ok-text" role="status" data-testid="restored">
          Restored.{' '}
          <button type="button" className="link-button" onClick={() => void openSession(panel.restoredKey ?? '')}>
            Open it
          </button>
        </p>
      )}
      {trash === null && !panel.trashError && <p className="muted">Loading the trash…</p>}
      {trash?.length === 0 && <p className="muted">The trash is empty.</p>}
      {trash && trash.length > 0 && (
        <ul className="vault-list" data-testid="trash-list">
          {trash.map((t) => (
            <li key={t.id} className="trash-row" data-testid="trash-row" data-key={t.key}>
              <span className="trash-title">{t.title}</span>
              <time className="muted" dateTime={t.deletedAt} title={formatTimestamp(t.deletedAt)}>
                deleted {relativeTime(t.deletedAt)}
              </time>
              <button type="button" data-testid="restore-button" disabled={panel.restoring !== null} onClick={() => void restore(t.id)}>
                {panel.restoring === t.id ? 'Restoring…' : 'Restore'}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="muted small">In the desktop app deleted copies go to the system trash and are restored from there.</p>
    </section>
  );
}
