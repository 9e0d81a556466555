// The top bar: app name, the search box and its syntax help, connection state, "Add folder…" and the number of sources.
import type { RefObject } from 'react';
import { shownSessions } from '../shown-sessions.ts';
import { useAppStore } from '../store/store-context.ts';
import { VaultPanelButton } from './vault/VaultPanel.tsx';
import { BundleShareListButton } from './bundle/BundleButtons.tsx';
import { BundleImportButton } from './bundle/BundleImport.tsx';
import { SearchHelp } from './search/SearchHelp.tsx';

export function TopBar({ filterRef, onAddFolder }: { filterRef: RefObject<HTMLInputElement | null>; onAddFolder(): void }) {
  const filter = useAppStore((s) => s.filter);
  const setFilter = useAppStore((s) => s.setFilter);
  const sessions = useAppStore((s) => s.sessions);
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
        {filter.trim()
          ? `${Math.max(shown, found ?? 0).toLocaleString()} of ${sessions.length.toLocaleString()}`
          : `${sessions.length.toLocaleString()} sessions`}
      </span>
      <span className="spacer" />
      {connection === 'offline' && (
        <span className="connection offline" data-testid="connection" role="status">
          Disconnected — retrying…
        </span>
      )}
      <VaultPanelButton />
      <BundleShareListButton />
      <BundleImportButton />
      <button type="button" onClick={onAddFolder}>
        Add folder…
      </button>
      <span className="muted roots-count">
        {rootCount} source{rootCount === 1 ? '' : 's'}
      </span>
    </header>
  );
}
