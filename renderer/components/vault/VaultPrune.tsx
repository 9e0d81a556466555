// Prune in the Vault panel: "older than N days" shows what would go first; only a second, explicit click removes it.
import { useState } from 'react';
import { formatTimestamp, plural } from '../../format.ts';
import { useAppStore } from '../../store/store-context.ts';

export function VaultPrune() {
  const panel = useAppStore((s) => s.vaultPanel);
  const previewPrune = useAppStore((s) => s.previewPrune);
  const confirmPrune = useAppStore((s) => s.confirmPrune);
  const cancelPrune = useAppStore((s) => s.cancelPrune);
  const [days, setDays] = useState('30');
  const preview = panel.prunePreview;
  const n = preview?.sessions.length ?? 0;

  return (
    <section className="vault-section" data-testid="prune">
      <h3>Prune</h3>
      <form
        className="vault-line"
        onSubmit={(e) => {
          e.preventDefault();
          void previewPrune(days);
        }}
      >
        <label htmlFor="prune-days">Kept sessions older than</label>
        <input
          id="prune-days"
          type="text"
          inputMode="numeric"
          className="days-input"
          data-testid="prune-days"
          value={days}
          onChange={(e) => setDays(e.target.value)}
        />
        <span>days</span>
        <button type="submit" data-testid="prune-preview" disabled={panel.pruneBusy}>
          Show what would go
        </button>
      </form>
      {panel.pruneError && (
        <p className="error-text" role="alert">
          {panel.pruneError}
        </p>
      )}
      {preview && (
        <div className="prune-preview" data-testid="prune-result" data-dry-run="true">
          {n === 0 ? (
            <p className="muted">No kept session is older than {preview.olderThanDays} days.</p>
          ) : (
            <>
              <p>
                {plural(n, 'kept session')} older than {preview.olderThanDays} days would move to the trash (their live sources are not touched):
              </p>
              <ul className="vault-list">
                {preview.sessions.map((s) => (
                  <li key={s.key} data-testid="prune-item" data-key={s.key}>
                    {s.title} <span className="muted">{formatTimestamp(s.at)}</span>
                  </li>
                ))}
              </ul>
              <div className="vault-line">
                <button type="button" className="danger" data-testid="prune-confirm" disabled={panel.pruneBusy} onClick={() => void confirmPrune()}>
                  {panel.pruneBusy ? 'Pruning…' : `Prune ${plural(n, 'session')}`}
                </button>
                <button type="button" onClick={cancelPrune}>
                  Cancel
                </button>
              </div>
            </>
          )}
        </div>
      )}
      {panel.pruned && (
        <p className="ok-text" role="status" data-testid="prune-done">
          Moved {plural(panel.pruned.sessions.length, 'session')} to the trash.
        </p>
      )}
    </section>
  );
}
