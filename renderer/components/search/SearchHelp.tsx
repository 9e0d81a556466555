// The "?" beside the search box: a small popover with the query syntax.
import { useEffect, useRef, useState } from 'react';

const SYNTAX: ReadonlyArray<[string, string]> = [
  ['flaky test', 'sessions holding every word'],
  ['"exact phrase"', 'these words in this order'],
  ['refact*', 'words starting with refact'],
  ['-draft', 'leave out sessions holding draft'],
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

export function SearchHelp() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
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
        aria-label="Search syntax"
        aria-expanded={open}
        title="Search syntax"
        onClick={() => setOpen((v) => !v)}
      >
        ?
      </button>
      {open && (
        <div className="search-help-popover" role="dialog" aria-label="Search syntax" data-testid="search-help-popover">
          <table>
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
