// `[` and `]` in the conversation: scroll to the previous or next prompt the user typed, fetching later windows of a long session to find it.
import { useEffect, useMemo, useRef } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import { isShortcutTarget } from '../../key-target.ts';
import { planPromptJump, promptRows } from './prompt-jumps.ts';
import type { Row } from './transcript.ts';

/** Keys typed into a field, or while a dialog is up, are not the transcript's. */
function keyIsElsewhere(target: EventTarget | null): boolean {
  return document.querySelector('dialog[open]') !== null || !isShortcutTarget(target);
}

export function usePromptJumps(options: {
  rows: readonly Row[];
  virtualizer: Virtualizer<HTMLElement, Element>;
  /** True while later windows of messages are still to be fetched. */
  more: boolean;
  loadingMore: boolean;
  loadMore(): Promise<void>;
}): void {
  const { rows, virtualizer, more, loadingMore, loadMore } = options;
  const prompts = useMemo(() => promptRows(rows), [rows]);
  /**
   * A `]` whose next prompt lies in a window not yet fetched: the reading position it was pressed at, and how many
   * rows there were when the window was asked for (a fetch that brings none, refused or failed, ends the wait).
   */
  const waiting = useRef<{ from: number; rows: number } | null>(null);
  const rowCount = rows.length;

  useEffect(() => {
    const startOf = (r: number) => virtualizer.measurementsCache[r]?.start ?? 0;
    /** The virtualizer places a row below the sticky tabs by itself (scrollPaddingStart): that line is where the reader is. */
    const readingTop = () => {
      const scroller = virtualizer.scrollElement;
      return scroller ? scroller.scrollTop + virtualizer.options.scrollPaddingStart : null;
    };
    const onKey = (e: KeyboardEvent) => {
      if ((e.key !== '[' && e.key !== ']') || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented || keyIsElsewhere(e.target)) return;
      const top = readingTop();
      if (top === null) return;
      e.preventDefault();
      const jump = planPromptJump(prompts, startOf, top, e.key === ']' ? 1 : -1, more);
      waiting.current = null;
      if (jump?.kind === 'row') virtualizer.scrollToIndex(jump.row, { align: 'start' });
      else if (jump?.kind === 'load') {
        waiting.current = { from: top, rows: loadingMore ? -1 : rowCount };
        if (!loadingMore) void loadMore();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [prompts, rowCount, more, loadingMore, loadMore, virtualizer]);

  // A window arrived (or is no longer coming) while a `]` waits: go on to the prompt, or fetch the window after.
  useEffect(() => {
    const wait = waiting.current;
    if (wait === null || loadingMore) return;
    const jump = planPromptJump(prompts, (r) => virtualizer.measurementsCache[r]?.start ?? 0, wait.from, 1, more);
    if (jump?.kind === 'row') {
      waiting.current = null;
      virtualizer.scrollToIndex(jump.row, { align: 'start' });
    } else if (jump?.kind === 'load' && rowCount !== wait.rows) {
      waiting.current = { from: wait.from, rows: rowCount };
      void loadMore();
    } else waiting.current = null;
  }, [prompts, rowCount, more, loadingMore, loadMore, virtualizer]);
}
