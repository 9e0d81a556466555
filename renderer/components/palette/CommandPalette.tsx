// The command palette (Ctrl/⌘+K), in its own chunk: cmdk's list and keyboard inside the app's modal dialog; open a session by title or run an action.
import { Command, defaultFilter } from 'cmdk';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { appearance, useAppearance } from '../settings/appearance.ts';
import type { SessionSummary } from '../../../shared/session.ts';
import { formatLabel } from '../../format.ts';
import { useAppStore, useAppStoreApi } from '../../store/store-context.ts';
import { ModalDialog } from '../ModalDialog.tsx';
import { OPEN_HELP_EVENT } from '../search/SearchHelp.tsx';
import { paletteActions, type PaletteAction, type PalettePage } from './palette-actions.ts';
import { rankFuzzy } from './palette-match.ts';
import '../../palette.css';

/** Sessions listed at most: the best matches (or the most recent ones before anything is typed). */
const SESSIONS_SHOWN = 30;

const PLACEHOLDER: Record<PalettePage | 'root', string> = {
  root: 'Type a command or a session title…',
  compare: 'Compare with which session? Type its title…',
  'add-folder': 'Type the path of a folder that holds sessions…',
};

function SessionItems(props: { shown: SessionSummary[]; heading: string; onPick(key: string): void }) {
  if (props.shown.length === 0) return null;
  return (
    <Command.Group heading={props.heading}>
      {props.shown.map((s) => (
        <Command.Item key={s.key} value={`session:${s.key}`} onSelect={() => props.onPick(s.key)} data-testid="palette-session" data-key={s.key}>
          <span className="palette-label">{s.title}</span>
          <span className="palette-hint">{formatLabel(s.format)}</span>
        </Command.Item>
      ))}
    </Command.Group>
  );
}

function ActionItems(props: { shown: PaletteAction[]; onRun(action: PaletteAction): void }) {
  if (props.shown.length === 0) return null;
  return (
    <Command.Group heading="Actions">
      {props.shown.map((a) => (
        <Command.Item key={a.id} value={`action:${a.id}`} onSelect={() => props.onRun(a)} data-testid="palette-action" data-action={a.id}>
          <span className="palette-label">{a.label}</span>
          {a.hint && <kbd className="palette-hint">{a.hint}</kbd>}
        </Command.Item>
      ))}
    </Command.Group>
  );
}

const actionText = (a: PaletteAction) => `${a.label} ${a.keywords.join(' ')}`;

/** The sessions the palette offers for a query (not the unreadable ones, nor `exclude`), best match first. */
function useSessionMatches(query: string, exclude: string | null): SessionSummary[] {
  const sessions = useAppStore((s) => s.sessions);
  return useMemo(
    () =>
      rankFuzzy(
        sessions.filter((s) => !s.unreadable && s.key !== exclude),
        query,
        (s) => s.title,
        defaultFilter,
        SESSIONS_SHOWN,
      ),
    [sessions, query, exclude],
  );
}

function AddFolderItem(props: { path: string; onDone(): void }) {
  const addRoot = useAppStore((s) => s.addRoot);
  const busy = useAppStore((s) => s.addRootBusy);
  const path = props.path.trim();
  if (!path) return null;
  return (
    <Command.Group heading="Folder">
      <Command.Item value="add-folder" disabled={busy} onSelect={() => void addRoot(path).then((ok) => ok && props.onDone())} data-testid="palette-add-folder">
        <span className="palette-label">{busy ? `Adding ${path}…` : `Add ${path}`}</span>
      </Command.Item>
    </Command.Group>
  );
}

/** Why the folder was not added (outside the list: only options belong in it). */
function AddFolderError() {
  const error = useAppStore((s) => s.addRootError);
  if (!error) return null;
  return (
    <p className="error-text palette-error" role="alert" data-testid="palette-error">
      {error}
    </p>
  );
}

/**
 * The item Enter runs for `query` before any arrow key: on the root page, the group holding the closer match comes
 * first (actions first before anything is typed).
 */
function bestValue(page: PalettePage | 'root', query: string, action: PaletteAction | undefined, session: SessionSummary | undefined): string | undefined {
  if (page === 'add-folder') return 'add-folder';
  if (page === 'compare') return session && `session:${session.key}`;
  const q = query.trim().toLowerCase();
  const score = (text: string | undefined) => (q && text !== undefined ? defaultFilter(text, q) : 0);
  const sessionsFirst = score(session?.title) > score(action && actionText(action));
  if (sessionsFirst && session) return `session:${session.key}`;
  return action ? `action:${action.id}` : session && `session:${session.key}`;
}

export default function CommandPalette({ onClose }: { onClose(): void }) {
  const store = useAppStoreApi();
  const [page, setPage] = useState<PalettePage | 'root'>('root');
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search);
  const theme = useAppearance().theme;
  // Read when the palette opens and as the store changes, so "Keep" and "Star" say what they will do.
  const state = useAppStore((s) => s);
  const actions = useMemo(
    () =>
      paletteActions(state, {
        theme,
        setTheme: (t) => appearance().set({ theme: t }),
        openHelp: () => window.dispatchEvent(new Event(OPEN_HELP_EVENT)),
      }),
    [state, theme],
  );
  const openKey = state.open?.session ? state.open.key : null;
  const shownActions = useMemo(() => rankFuzzy(actions, query, actionText, defaultFilter, 20), [actions, query]);
  const shownSessions = useSessionMatches(page === 'root' ? query : '', null);
  const partners = useSessionMatches(page === 'compare' ? query : '', openKey);
  // The best match is the selected one (Enter runs it) each time the matches change, whichever group it is in.
  const firstValue = bestValue(page, query, shownActions[0], page === 'compare' ? partners[0] : shownSessions[0]);
  const sessionsFirst = firstValue?.startsWith('session:') ?? false;
  const [selection, setSelection] = useState({ first: '', value: '' });
  // Adjusted while rendering (React's pattern for state that follows a prop), not in an effect.
  if (selection.first !== (firstValue ?? '')) setSelection({ first: firstValue ?? '', value: firstValue ?? '' });
  const input = useRef<HTMLInputElement>(null);
  // After the dialog is shown (its effect runs before this one): the box takes focus, on every page.
  useEffect(() => input.current?.focus(), [page]);

  const goTo = (next: PalettePage | 'root') => {
    setPage(next);
    setSearch('');
  };
  const run = (action: PaletteAction) => {
    const next = action.run();
    if (next) goTo(next);
    else onClose();
  };
  const openSession = (key: string) => {
    onClose();
    void store.getState().openListed(key);
  };
  const compareWith = (key: string) => {
    onClose();
    if (openKey) void store.getState().openCompare(openKey, key);
  };
  /** Runs the item cmdk would run for `value` (what Enter does on the selected item). */
  const runValue = (value: string) => {
    if (value.startsWith('action:')) {
      const action = actions.find((a) => `action:${a.id}` === value);
      if (action) run(action);
    } else if (value.startsWith('session:')) {
      const key = value.slice('session:'.length);
      if (page === 'compare') compareWith(key);
      else openSession(key);
    }
  };
  // Enter pressed before the list has caught up with the typing (the list follows a deferred copy of the box, which
  // keeps typing quick over 100,000 titles) runs the best match for what the box holds: run from the list, it ran the
  // unfiltered first action.
  const enterOnTyped = () => {
    const sessions = store.getState().sessions.filter((s) => !s.unreadable && (page !== 'compare' || s.key !== openKey));
    const topSession = rankFuzzy(sessions, search, (s) => s.title, defaultFilter, 1)[0];
    const value = bestValue(page, search, rankFuzzy(actions, search, actionText, defaultFilter, 1)[0], topSession);
    if (value) runValue(value);
  };

  const actionGroup = <ActionItems key="actions" shown={shownActions} onRun={run} />;
  const sessionGroup = <SessionItems key="sessions" shown={shownSessions} heading="Open a session" onPick={openSession} />;

  return (
    <ModalDialog labelledBy="palette-title" testId="palette" onEscape={() => (page === 'root' ? onClose() : goTo('root'))}>
      <h2 id="palette-title" className="sr-only">
        Command palette
      </h2>
      <Command
        label="Command palette"
        className="palette"
        shouldFilter={false}
        value={selection.value}
        onValueChange={(value) => setSelection((was) => ({ ...was, value }))}
        loop
        onKeyDown={(e) => {
          if (e.key === 'Enter' && page !== 'add-folder' && query !== search) {
            e.preventDefault();
            enterOnTyped();
            return;
          }
          // Backspace in an empty box goes back from a page to the list of everything.
          if (e.key === 'Backspace' && search === '' && page !== 'root') {
            e.preventDefault();
            goTo('root');
          }
        }}
      >
        <Command.Input ref={input} value={search} onValueChange={setSearch} placeholder={PLACEHOLDER[page]} data-testid="palette-input" />
        <Command.List className="palette-list" label="Results">
          <Command.Empty>{page === 'add-folder' ? 'Type a path, then press Enter.' : 'Nothing matches.'}</Command.Empty>
          {page === 'root' && (sessionsFirst ? [sessionGroup, actionGroup] : [actionGroup, sessionGroup])}
          {page === 'compare' && <SessionItems shown={partners} heading="Compare with" onPick={compareWith} />}
          {page === 'add-folder' && <AddFolderItem path={search} onDone={onClose} />}
        </Command.List>
        {page === 'add-folder' && <AddFolderError />}
      </Command>
    </ModalDialog>
  );
}
