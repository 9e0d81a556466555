// The top bar: app name, the search box and its syntax help, connection state, the usage dashboard, "Add folder…", settings, the palette and the number of sources.
import type { RefObject } from 'react';
import { OpenFileButton } from './OpenFile.tsx';
import type { SessionSummary } from '../../shared/session.ts';
import { shownSessions } from '../shown-sessions.ts';
import { useAppStore } from '../store/store-context.ts';
import { VaultPanelButton } from './vault/VaultPanel.tsx';
import { BundleShareListButton } from './bundle/BundleButtons.tsx';
import { BundleImportButton } from './bundle/BundleImport.tsx';
import { SearchHelp } from './search/SearchHelp.tsx';
import { UsageButton } from './usage/UsageLanding.tsx';
import { PaletteButton } from './palette/PaletteLayer.tsx';
import { SettingsButton } from './settings/SettingsView.tsx';
import { plural } from '../format.ts';

/** "84 sessions · 3 unreadable": unreadable files are listed, but they are not sessions (the Sources panel counts them the same way). */
export function sessionsText(readable: number, unreadable: number): string {
  const sessions = plural(readable, 'session');
  return unreadable > 0 ? `${sessions} · ${unreadable.toLocaleString()} unreadable` : sessions;
}

let counted: { sessions: readonly SessionSummary[]; readable: number } | null = null;

function readableCount(sessions: readonly SessionSummary[]): number {
  if (counted?.sessions !== sessions) counted = { sessions, readable: sessions.reduce((n, s) => n + (s.unreadable ? 0 : 1), 0) };
  return counted.readable;
}

export function TopBar({ filterRef, onAddFolder }: { filterRef: RefObject<HTMLInputElement | null>; onAddFolder(): void }) {
  const filter = useAppStore((s) => s.filter);
  const setFilter = useAppStore((s) => s.setFilter);
  const sessions = useAppStore((s) => s.sessions);
  const readable = useAppStore((s) => readableCount(s.sessions));
  const rootCount = useAppStore((s) => s.roots.length);
  const connection = useAppStore((s) => s.connection);
  const version = useAppStore((s) => s.appInfo?.version ?? null);
  const shown = useAppStore((s) => shownSessions(s).length);
  const found = useAppStore((s) => (s.filter.trim() && s.search && !s.search.error ? s.search.total : null));

  return (
    <header className="topbar">
      <span className="brand" title={version ? `Session Vault ${version}` : 'Session Vault'}>
        Session Vault
      </span>
      <input
        ref={filterRef}
        className="filter"
        data-testid="filter"
        type="search"
        placeholder="Search sessions   /"
        aria-label="Search sessions"
        spellCheck={false}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <SearchHelp />
      <span className="muted count">
        {filter.trim() ? `${Math.max(shown, found ?? 0).toLocaleString()} of ${readable.toLocaleString()}` : sessionsText(readable, sessions.length - readable)}
      </span>
      <span className="spacer" />
      {connection === 'offline' && (
        <span className="connection offline" data-testid="connection" role="status">
          Disconnected — retrying…
        </span>
      )}
      <UsageButton />
      <VaultPanelButton />
      <BundleShareListButton />
      <BundleImportButton />
      <OpenFileButton />
      <button type="button" className="topbar-add-folder" onClick={onAddFolder}>
        Add folder…
      </button>
      <SettingsButton />
      <PaletteButton />
      <span className="muted roots-count">{plural(rootCount, 'source')}</span>
    </header>
  );
}
