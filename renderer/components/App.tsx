// The app shell (top bar, session list + sources on the left, detail or empty state on the right) and its keyboard.
/*
 * data-testid attributes for end-to-end tests:
 *   filter (the search box), search-help, sort, search-stats, search-problem, facet (data-filter), row-snippet,
 *   facets-toggle, status-bar, index-progress, session-list, session-row (data-key, data-unreadable="true"), session-title, child-count,
 *   detail (data-key), detail-title, detail-branch, detail-outcome, detail-error, unreadable-reason,
 *   usage-totals, warning-badge, extra-facts, parent-link, fork-link, fork-origin, subagents, subagent (data-key),
 *   message (data-role, data-agent, data-search-target on the message a search result opened at), tool-card (data-status ok|error|pending),
 *   thinking (data-redacted), compaction, agent-group (data-agent), raw-record,
 *   find-bar, find-count, operation (data-type), op-node (data-depth, data-status ok|failed|running|unknown),
 *   op-totals, todo (data-status), config-row, warning, raw-source,
 *   empty-state, add-root-input, add-root-button, add-root-error, open-demo,
 *   roots-panel, root-row (data-kind), connection (only while disconnected),
 *   link-confirm (the dialog before a link leaves the app), link-confirm-url, link-confirm-open, link-confirm-cancel.
 * Detail tabs are role="tab" buttons with data-tab = conversation|operations|todos|config|warnings|raw.
 * Virtual lists render the rows near the viewport plus 40 each way, so short sessions are fully in the DOM.
 */
import { useEffect, useRef, useState } from 'react';
import { bindSessionRoute } from '../session-route.ts';
import { OPEN_HELP_EVENT } from './search/SearchHelp.tsx';
import { useAppStore, useAppStoreApi } from '../store/store-context.ts';
import { Detail } from './Detail.tsx';
import { EmptyState } from './EmptyState.tsx';
import { SessionList } from './SessionList.tsx';
import { SourcesPanel } from './SourcesPanel.tsx';
import { TeamPanel } from './team/TeamPanel.tsx';
import { TopBar } from './TopBar.tsx';
import { VaultPanel } from './vault/VaultPanel.tsx';
import { BundleLayer } from './bundle/BundleButtons.tsx';
import { LinkConfirm } from './LinkConfirm.tsx';
import { bindCompareRoute } from './compare/compare-route.ts';
import { Compare } from './compare/Compare.tsx';
import { CompareBar } from './compare/CompareBar.tsx';
import { StatusLine } from './StatusLine.tsx';
import { bindSettingsRoute } from './settings/settings-route.ts';
import { SettingsView } from './settings/SettingsView.tsx';
import { PaletteLayer } from './palette/PaletteLayer.tsx';
import { splitTeamKey } from '../../shared/team-keys.ts';
import { inDialog, isTextEntry } from '../key-target.ts';

export function App() {
  const store = useAppStoreApi();
  const filterRef = useRef<HTMLInputElement>(null);
  const [addOpen, setAddOpen] = useState(false);
  // Not before the folders are known: the list answers first at start, and the empty state's sentence about the
  // folders would otherwise change a line under the user ("No source folders are known yet" becoming "None were found").
  const isEmpty = useAppStore((s) => s.loaded && s.rootsLoaded && !s.listError && s.sessions.length === 0 && !s.roots.some((r) => r.sessionCount > 0));
  const comparing = useAppStore((s) => s.compare !== null);
  const settingsOpen = useAppStore((s) => s.settingsOpen);
  // #/compare/<a>/<b> opens a comparison, and an open comparison is kept in the URL.
  useEffect(() => bindCompareRoute(store, window), [store]);
  // #/session/<key>/<tab>[/<message>] opens a session; the open one is kept in the URL (reload, links, Back and Forward).
  useEffect(() => bindSessionRoute(store, window), [store]);
  // #/settings shows the Settings page.
  useEffect(() => bindSettingsRoute(store, window), [store]);
  // A bundle double-clicked before this window existed is waiting in the main process.
  useEffect(() => void store.getState().importOpened(), [store]);
  // So is a session file the OS or the File menu opened.
  useEffect(() => void store.getState().takeOpenedSessions(), [store]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const target = e.target instanceof Element ? e.target : null;
      // A dialog's keys are its own (it handles Esc itself).
      if (inDialog(target)) return;
      const inFilter = target !== null && target === filterRef.current;
      const typing = !inFilter && isTextEntry(target);
      const state = store.getState();
      if (typing) return;
      switch (e.key) {
        case '/':
          if (inFilter) return;
          e.preventDefault();
          filterRef.current?.focus();
          filterRef.current?.select();
          return;
        case 'Escape':
          // One step back at a time: the search first (picking a session may need it), then picking or marking a
          // session to compare, then the search box's focus.
          if (state.filter) {
            e.preventDefault();
            state.setFilter('');
          } else if (state.comparePick) {
            e.preventDefault();
            state.cancelComparePick();
          } else if (state.compareMarks.length > 0) {
            e.preventDefault();
            state.clearCompareMarks();
          } else if (inFilter) {
            filterRef.current?.blur();
          }
          return;
        case 'ArrowDown':
        case 'ArrowUp':
          e.preventDefault();
          state.moveSelection(e.key === 'ArrowDown' ? 1 : -1);
          return;
        // Letters are keys only outside the search box, where they are text.
        case 'j':
        case 'k':
          if (inFilter) return;
          e.preventDefault();
          state.moveSelection(e.key === 'j' ? 1 : -1);
          return;
        case 'o':
          if (inFilter) return;
          e.preventDefault();
          void state.openSelected();
          return;
        case 'e':
          if (inFilter || !state.open?.session) return;
          e.preventDefault();
          void state.openShare([state.open.key]);
          return;
        case '?':
          if (inFilter) return;
          e.preventDefault();
          window.dispatchEvent(new Event(OPEN_HELP_EVENT));
          return;
        case 's':
          // Not while typing in the filter box either: there `s` is a letter. A team session has no local star.
          if (inFilter || !state.open?.session || splitTeamKey(state.open.key)) return;
          e.preventDefault();
          void state.toggleStar();
          return;
        case 'Enter':
          // Buttons, links and summaries keep their own Enter.
          if (target && !inFilter && target.closest('button, a, summary')) return;
          e.preventDefault();
          void state.openSelected();
          return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);

  const onAddFolder = () => {
    if (isEmpty) {
      document.getElementById('add-root-input')?.focus();
      return;
    }
    setAddOpen((v) => !v);
  };

  return (
    <div className="app">
      <TopBar filterRef={filterRef} onAddFolder={onAddFolder} />
      <div className="body">
        <aside className="sidebar">
          <CompareBar />
          <SessionList />
          <SourcesPanel showAddForm={addOpen && !isEmpty} onToggleAdd={() => setAddOpen((v) => !v)} />
          <TeamPanel />
        </aside>
        <main className="main">{settingsOpen ? <SettingsView /> : isEmpty ? <EmptyState /> : comparing ? <Compare /> : <Detail />}</main>
      </div>
      <StatusLine />
      <VaultPanel />
      <BundleLayer />
      <LinkConfirm />
      <PaletteLayer />
    </div>
  );
}
