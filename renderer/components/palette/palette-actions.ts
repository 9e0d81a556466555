// The command palette's actions: what can be run now (keep, star, share, compare with…, add folder, theme, settings, usage, …).
import type { ThemeChoice } from '../settings/appearance.ts';
import type { AppState } from '../../store/store.ts';
import { splitTeamKey } from '../../../shared/team-keys.ts';

/** A palette page that asks for something more: the session to compare with, or a folder's path. */
export type PalettePage = 'compare' | 'add-folder';

export interface PaletteAction {
  id: string;
  label: string;
  /** More words it is found by. */
  keywords: string[];
  /** The key that does the same outside the palette. */
  hint?: string;
  /** Runs it; a page name keeps the palette open on that page. */
  run(): void | PalettePage;
}

/** What the actions need besides the store: the page's theme control and its help. */
export interface PaletteHost {
  theme: ThemeChoice;
  setTheme(theme: ThemeChoice): void;
  openHelp(): void;
}

const THEME_NAMES: Record<ThemeChoice, string> = { system: 'the system’s', light: 'light', dark: 'dark' };

export function paletteActions(state: AppState, host: PaletteHost): PaletteAction[] {
  const actions: PaletteAction[] = [];
  const open = state.open?.session ? state.open : null;
  if (open) {
    const title = state.open?.session?.title ?? open.key;
    const kept = state.vault?.key === open.key && state.vault.status?.keptPath != null;
    const starred = state.vault?.key === open.key && state.vault.status?.annotations.starred === true;
    // A team session is kept in the team store: this machine's vault neither keeps nor stars it.
    const local = !splitTeamKey(open.key);
    if (local && !kept)
      actions.push({ id: 'keep', label: `Keep “${title}” in the vault`, keywords: ['keep', 'save', 'vault'], run: () => void state.keepOpen() });
    if (local)
      actions.push({
        id: 'star',
        label: starred ? `Unstar “${title}”` : `Star “${title}”`,
        keywords: ['star', 'favourite', 'favorite'],
        hint: 's',
        run: () => void state.toggleStar(),
      });
    actions.push({
      id: 'share',
      label: `Share or export “${title}”…`,
      keywords: ['share', 'export', 'bundle', 'zip', 'markdown', 'html'],
      hint: 'e',
      run: () => void state.openShare([open.key]),
    });
    actions.push({ id: 'compare', label: `Compare “${title}” with…`, keywords: ['compare', 'diff', 'versus'], run: () => 'compare' });
  }
  actions.push(
    { id: 'share-list', label: 'Share the sessions the list shows…', keywords: ['share', 'export', 'list', 'bundle'], run: () => void state.openShareList() },
    { id: 'usage', label: 'Show the usage dashboard', keywords: ['usage', 'tokens', 'cost', 'charts', 'dashboard'], run: () => state.showUsage() },
    {
      id: 'settings',
      label: 'Open settings',
      keywords: ['settings', 'preferences', 'options', 'folders', 'theme', 'prices'],
      run: () => state.showSettings(true),
    },
    { id: 'add-folder', label: 'Add a folder…', keywords: ['add', 'folder', 'root', 'source', 'directory'], run: () => 'add-folder' },
    { id: 'rescan', label: 'Scan all folders again', keywords: ['rescan', 'refresh', 'reload', 'folders'], run: () => void state.rescanRoots() },
  );
  for (const theme of ['light', 'dark', 'system'] as const) {
    if (theme === host.theme) continue;
    actions.push({
      id: `theme-${theme}`,
      label: `Switch to ${THEME_NAMES[theme]} theme`,
      keywords: ['theme', 'appearance', 'colour', 'color', theme],
      run: () => host.setTheme(theme),
    });
  }
  actions.push({ id: 'help', label: 'Keyboard shortcuts and search syntax', keywords: ['help', 'keys', 'shortcuts', 'syntax'], hint: '?', run: host.openHelp });
  if (state.roots.every((r) => r.kind !== 'demo')) {
    actions.push({ id: 'demo', label: 'Open the demo sessions', keywords: ['demo', 'sample', 'example'], run: () => void state.openDemo() });
  }
  return actions;
}
