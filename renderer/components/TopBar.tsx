// The top bar: app name, the filter box, connection state, "Add folder…" and the number of sources.
import type { RefObject } from 'react';
import { visibleSessions } from '../session-filter.ts';
import { useAppStore } from '../store-context.ts';
import { VaultPanelButton } from './VaultPanel.tsx';
import { BundleShareListButton } from './BundleButtons.tsx';
import { BundleImportButton } from './BundleImport.tsx';

export function TopBar({ filterRef, onAddFolder }: { filterRef: RefObject<HTMLInputElement | null>; onAddFolder(): void }) {
  const filter = useAppStore((s) => s.filter);
  const setFilter = useAppStore((s) => s.setFilter);
  const sessions = useAppStore((s) => s.sessions);
  const rootCount = useAppStore((s) => s.roots.length);
  const connection = useAppStore((s) => s.connection);
  const version = useAppStore((s) => s.appInfo?.version ?? null);
  const shown = visibleSessions(sessions, filter).length;

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
        placeholder="Filter sessions   /"
        aria-label="Filter sessions"
        spellCheck={false}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <span className="muted count">{filter ? `${shown} of ${sessions.length}` : `${sessions.length} sessions`}</span>
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
