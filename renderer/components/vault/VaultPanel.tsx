// The Vault panel (from the top bar): auto-keep, prune with a dry run, the trash with restore, and "Clear all…" behind typing CLEAR; not offered by `serve --team`.
import { useEffect, useState } from 'react';
import { useAppStore } from '../../store/store-context.ts';
import { useServedTeam } from '../team/team-access.ts';
import { VaultPrune } from './VaultPrune.tsx';
import { VaultTrash } from './VaultTrash.tsx';
import { plural } from '../../format.ts';

export function VaultPanelButton() {
  const open = useAppStore((s) => s.vaultPanel.open);
  const show = useAppStore((s) => s.showVaultPanel);
  // `serve --team` serves the team store only: auto-keep, prune, the trash and clearing are a local vault's.
  const served = useServedTeam();
  if (served) return null;
  return (
    <button type="button" data-testid="vault-panel-button" aria-expanded={open} onClick={() => void show(!open)}>
      Vault…
    </button>
  );
}

function AutoKeep() {
  const settings = useAppStore((s) => s.vaultPanel.settings);
  const error = useAppStore((s) => s.vaultPanel.settingsError);
  const setAutoKeep = useAppStore((s) => s.setAutoKeep);
  return (
    <section className="vault-section">
      <h3>Keep automatically</h3>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          data-testid="auto-keep"
          checked={settings?.autoKeep ?? false}
          disabled={!settings}
          onChange={(e) => void setAutoKeep(e.target.checked)}
        />
        Keep every session once it is closed or has been idle for 10 minutes, so tools that delete old sessions cannot lose it.
      </label>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function ClearAll() {
  const panel = useAppStore((s) => s.vaultPanel);
  const clearAll = useAppStore((s) => s.clearAll);
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  return (
    <section className="vault-section">
      <h3>Clear all</h3>
      {!asking ? (
        <button type="button" className="danger" data-testid="clear-button" onClick={() => setAsking(true)}>
          Clear all…
        </button>
      ) : (
        <form
          className="vault-line"
          onSubmit={(e) => {
            e.preventDefault();
            void clearAll(typed).then((ok) => {
              if (ok) {
                setAsking(false);
                setTyped('');
              }
            });
          }}
        >
          <label htmlFor="clear-confirm">Every kept session and fork moves to the trash. Type CLEAR to confirm:</label>
          <input
            id="clear-confirm"
            type="text"
            data-testid="clear-input"
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <button type="submit" className="danger" data-testid="clear-confirm" disabled={panel.clearBusy || typed !== 'CLEAR'}>
            {panel.clearBusy ? 'Clearing…' : 'Clear the vault'}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </form>
      )}
      {panel.clearError && (
        <p className="error-text" role="alert">
          {panel.clearError}
        </p>
      )}
      {panel.cleared !== null && (
        <p className="ok-text" role="status" data-testid="clear-result">
          Moved {plural(panel.cleared, 'session')} to the trash.
        </p>
      )}
    </section>
  );
}

export function VaultPanel() {
  const open = useAppStore((s) => s.vaultPanel.open);
  const show = useAppStore((s) => s.showVaultPanel);
  // Esc closes the panel wherever focus is (a button disabled while busy drops it to the page).
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      void show(false);
    };
    // Capture: before the list's own Esc, which would clear the filter.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open, show]);
  if (!open) return null;
  return (
    <aside className="vault-panel" role="dialog" aria-label="Vault" data-testid="vault-panel">
      <div className="panel-header">
        <h2>Vault</h2>
        <button type="button" className="icon-button" aria-label="Close the Vault panel" title="Close (Esc)" onClick={() => void show(false)}>
          ×
        </button>
      </div>
      <AutoKeep />
      <VaultPrune />
      <VaultTrash />
      <ClearAll />
    </aside>
  );
}
