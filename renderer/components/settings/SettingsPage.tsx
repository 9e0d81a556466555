// The Settings page (#/settings, from the top bar and the palette): folders, auto-keep, appearance, prices, where the data lives, the keys.
import { useEffect } from 'react';
import { useAppStore } from '../../store/store-context.ts';
import { SHORTCUTS } from '../search/SearchHelp.tsx';
import { AppearanceSettings } from './AppearanceSettings.tsx';
import { FolderSettings } from './FolderSettings.tsx';
import { PricingSettings } from './PricingSettings.tsx';
import './settings.css';

function AutoKeepSetting() {
  const settings = useAppStore((s) => s.vaultSettings);
  const error = useAppStore((s) => s.vaultSettingsError);
  const load = useAppStore((s) => s.loadVaultSettings);
  const setAutoKeep = useAppStore((s) => s.setAutoKeepSetting);
  useEffect(() => void load(), [load]);
  return (
    <section className="settings-section" aria-labelledby="settings-vault">
      <h2 id="settings-vault">Vault</h2>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          data-testid="settings-auto-keep"
          checked={settings?.autoKeep ?? false}
          disabled={!settings}
          onChange={(e) => void setAutoKeep(e.target.checked)}
        />
        Keep every session automatically once it is closed or has been idle for 10 minutes, so tools that delete old sessions cannot lose it.
      </label>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function DataSettings() {
  const info = useAppStore((s) => s.appInfo);
  return (
    <section className="settings-section" aria-labelledby="settings-data">
      <h2 id="settings-data">Where the data lives</h2>
      <dl className="facts">
        <dt>Data folder</dt>
        <dd className="mono" data-testid="settings-data-dir">
          {info?.dataDir ?? '…'}
        </dd>
        <dt>Holds</dt>
        <dd>the vault (kept sessions, notes, forks, the trash), the search index, the folder list, pricing.json</dd>
        {info?.demoRootPath && (
          <>
            <dt>Demo sessions</dt>
            <dd className="mono">{info.demoRootPath}</dd>
          </>
        )}
        <dt>Version</dt>
        <dd>{info ? `Session Vault ${info.version} (${info.shell === 'electron' ? 'desktop app' : 'in the browser'})` : '…'}</dd>
      </dl>
      <p className="muted settings-note">Set SESSION_VAULT_HOME before starting the app to keep the data somewhere else.</p>
    </section>
  );
}

function ShortcutSettings() {
  return (
    <section className="settings-section" aria-labelledby="settings-keys">
      <h2 id="settings-keys">Keyboard shortcuts</h2>
      <table className="grid settings-table" data-testid="settings-shortcuts">
        <tbody>
          {SHORTCUTS.map(([keys, action]) => (
            <tr key={keys}>
              <th scope="row" className="mono">
                {keys}
              </th>
              <td>{action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export default function SettingsPage() {
  const close = useAppStore((s) => s.showSettings);
  return (
    <section className="settings" data-testid="settings-page" aria-labelledby="settings-title">
      <header className="settings-title">
        <h1 id="settings-title">Settings</h1>
        <button type="button" className="link-button" data-testid="settings-close" onClick={() => close(false)}>
          Close
        </button>
      </header>
      <AppearanceSettings />
      <FolderSettings />
      <AutoKeepSetting />
      <PricingSettings />
      <DataSettings />
      <ShortcutSettings />
    </section>
  );
}
