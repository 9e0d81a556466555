// The find bar inside the detail view: query, "3 of 17", next/previous, Esc to close.
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { findCountLabel } from './find.ts';

export function FindBar(props: {
  query: string;
  onQuery(text: string): void;
  current: number;
  total: number;
  onStep(delta: 1 | -1): void;
  onClose(): void;
  /** Changes each time Ctrl/Cmd+F is pressed, so a second press re-focuses the field. */
  focusSignal: number;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [props.focusSignal]);

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      props.onStep(e.shiftKey ? -1 : 1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      props.onClose();
    }
  };

  return (
    <div className="find-bar" data-testid="find-bar" role="search">
      <input
        ref={inputRef}
        type="search"
        className="find-input"
        aria-label="Find in session"
        placeholder="Find in session"
        spellCheck={false}
        value={props.query}
        onChange={(e) => props.onQuery(e.target.value)}
        onKeyDown={onKey}
      />
      <span className="find-count muted" data-testid="find-count" aria-live="polite">
        {props.query.trim() ? findCountLabel(props.current, props.total) : ''}
      </span>
      <button type="button" aria-label="Previous match" title="Previous (Shift+Enter)" disabled={props.total === 0} onClick={() => props.onStep(-1)}>
        ↑
      </button>
      <button type="button" aria-label="Next match" title="Next (Enter)" disabled={props.total === 0} onClick={() => props.onStep(1)}>
        ↓
      </button>
      <button type="button" className="icon-button" aria-label="Close find" title="Close (Esc)" onClick={props.onClose}>
        ×
      </button>
    </div>
  );
}
