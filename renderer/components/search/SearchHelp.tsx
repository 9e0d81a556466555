// The "?" beside the search box (and the ? key): a small popover with the keyboard shortcuts and the query syntax.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';

const SYNTAX: ReadonlyArray<[string, string]> = [
  ['flaky test', 'sessions holding every word'],
  ['"exact phrase"', 'these words in this order'],
  ['refact*', 'words starting with refact'],
  ['-draft  or  NOT draft', 'leave out sessions holding draft (filters cannot be left out, but -has:summary)'],
  ['parseConfig, src/app.ts', 'parts of identifiers, ids and paths'],
  ['source:codex', 'one tool (claude-code, codex, gemini, vizier, …)'],
  ['project:api  branch:main', 'project or branch'],
  ['status:closed  outcome:accepted', 'lifecycle status or outcome'],
  ['model:gpt-5  tag:release', 'model or tag'],
  ['is:starred  is:kept', 'starred or kept in the vault'],
  ['has:summary', 'sessions with a summary'],
  ['after:2026-01-31  before:2026-03-01', 'by date'],
  ['after:7d  before:24h', 'a span back from now (h, d, w)'],
  ['tokens>100000  cost>2.5', 'at least this many tokens or dollars'],
  ['sort:updated', 'relevance, date, updated, created, size, tokens or cost'],
];

/** The app's keys, as App.tsx, the palette and the detail view handle them (the Settings page lists them too). */
export const SHORTCUTS: ReadonlyArray<[string, string]> = [
  ['Ctrl+K  or  ⌘K', 'command palette: open a session, run any action'],
  ['/', 'search'],
  ['↑ ↓  or  j k', 'move in the list'],
  ['Enter  or  o', 'open the selected session'],
  ['[  ]', 'previous or next prompt in the open session'],
  ['s', 'star the open session'],
  ['e', 'share or export the open session'],
  ['Ctrl+F', 'find in the open session'],
  ['Esc', 'close, then clear the search, then stop picking or marking sessions to compare'],
  ['?', 'this help'],
];

/** Sent on window by the ? key: opens this help from anywhere. */
export const OPEN_HELP_EVENT = 'session-vault:open-help';

export function SearchHelp() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const show = () => setOpen(true);
    window.addEventListener(OPEN_HELP_EVENT, show);
    return () => window.removeEventListener(OPEN_HELP_EVENT, show);
  }, []);
  // Before paint: once the help is on screen, Esc already closes it.
  useLayoutEffect(() => {
    if (!open) return;
    const onMouse = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    // Capture, and claim the key: this Esc closes the help and does not also clear the search box.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      setOpen(false);
    };
    window.addEventListener('mousedown', onMouse);
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('mousedown', onMouse);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [open]);

  return (
    <span className="search-help" ref={ref}>
      <button
        type="button"
        className="help-button"
        data-testid="search-help"
        aria-label="Keyboard shortcuts and search syntax"
        aria-expanded={open}
        title="Keyboard shortcuts and search syntax (?)"
        onClick={() => setOpen((v) => !v)}
      >
        ?
      </button>
      {open && (
        <div className="search-help-popover" role="dialog" aria-label="Keyboard shortcuts and search syntax" data-testid="search-help-popover">
          <table data-testid="shortcut-help">
            <caption>Keys</caption>
            <tbody>
              {SHORTCUTS.map(([keys, action]) => (
                <tr key={keys}>
                  <td className="mono">{keys}</td>
                  <td className="muted">{action}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table>
            <caption>Search</caption>
            <tbody>
              {SYNTAX.map(([example, meaning]) => (
                <tr key={example}>
                  <td className="mono">{example}</td>
                  <td className="muted">{meaning}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </span>
  );
}
