// The conversation tab: a virtualized transcript (only the rows near the viewport render) with find in session.
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { Message, Operation } from '../../../shared/session.ts';
import { expansionFor } from './expansion.ts';
import { anyOf, buildFindIndex, currentMatch, findMatches, stepFind, type FindStep } from './find.ts';
import type { SearchFocus } from '../../store/store-search.ts';
import { buildTranscript, type Row } from './transcript.ts';
import { useVirtualRows } from '../../use-virtual-rows.ts';
import { useAppStore } from '../../store/store-context.ts';
import { FindBar } from './FindBar.tsx';
import { usePromptJumps } from './use-prompt-jumps.ts';
import { AgentHeading, MessageRow, type RowContext } from './MessageRow.tsx';

function estimate(row: Row | undefined): number {
  if (!row || row.kind === 'agent') return 32;
  if (row.resultsOnly) return 44;
  let h = 40;
  for (const it of row.items) h += it.kind === 'text' ? Math.min(400, 24 + it.text.length / 4) : 36;
  return h;
}

export interface FindControl {
  open: boolean;
  focusSignal: number;
  onClose(): void;
}

/** Where the current match lies; the DOM marks of that row are counted to pick the n-th one. */
function revealMatch(list: HTMLElement | null, row: number, occurrence: number): boolean {
  const el = list?.querySelector(`[data-index="${row}"]`);
  if (!el) return false;
  for (const old of list?.querySelectorAll('mark.find-current') ?? []) old.classList.remove('find-current');
  const marks = el.querySelectorAll('mark.find-hit');
  const target = marks[Math.min(occurrence, marks.length - 1)];
  if (target) {
    target.classList.add('find-current');
    target.scrollIntoView({ block: 'center' });
  } else {
    el.scrollIntoView({ block: 'nearest' });
  }
  return true;
}

function childSessions(operations: readonly Operation[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const op of operations) if (op.childSessionKey) out.set(op.id, op.childSessionKey);
  return out;
}

/** Brings the row a search result opened at to the middle of the view, at its first marked word when it has one. */
function revealTarget(list: HTMLElement | null, row: number): boolean {
  const el = list?.querySelector(`[data-index="${row}"]`);
  if (!el) return false;
  const mark = el.querySelector('mark.find-hit');
  (mark ?? el).scrollIntoView({ block: mark ? 'center' : 'start' });
  return true;
}

/** How close to the end of the loaded messages the viewport may come before the next window is fetched. */
const PREFETCH_ROWS = 60;

export function Conversation(props: {
  sessionKey: string;
  messages: Message[];
  /** All the session's messages; more than `messages.length` while later windows are still to be fetched. */
  messagesTotal: number;
  operations: Operation[];
  find: FindControl;
  /** Opened from a search result: the message to scroll to and mark. */
  focus?: SearchFocus | null;
}) {
  const { sessionKey, messages, messagesTotal, operations, find, focus = null } = props;
  const loadMore = useAppStore((s) => s.loadMoreMessages);
  const loadingMore = useAppStore((s) => s.open?.loadingMore ?? false);
  const transcript = useMemo(() => buildTranscript(messages), [messages]);
  const childSessionByCall = useMemo(() => childSessions(operations), [operations]);
  const { rows } = transcript;
  const expansion = useMemo(() => expansionFor(`conversation:${sessionKey}`), [sessionKey]);
  const [query, setQuery] = useState('');
  const [step, setStep] = useState<FindStep>({ query: '', index: 0 });
  const deferred = useDeferredValue(find.open ? query : '');
  // Built on first use of find only: a long session pays nothing until someone searches it.
  const index = useMemo(() => (find.open ? buildFindIndex(rows) : null), [rows, find.open]);
  const matches = useMemo(() => (index ? findMatches(index, deferred) : []), [index, deferred]);
  const current = currentMatch(step, deferred, matches.length);
  const active = current >= 0 ? matches[current] : undefined;

  const ctx: RowContext = useMemo(
    () => ({ expansion, query: deferred.trim() ? deferred : '', agentsByCall: transcript.agentsByCall, childSessionByCall }),
    [expansion, deferred, transcript, childSessionByCall],
  );
  const { listRef, virtualizer } = useVirtualRows({
    count: rows.length,
    estimateSize: (i) => estimate(rows[i]),
    getItemKey: (i) => rows[i]?.key ?? i,
    // The tabs stay stuck over the pane's top: a prompt jumped to starts just below them.
    coveredBy: '.detail .tabs',
  });

  // The search result's message may lie in a window still being fetched: it is found once it arrives.
  const focusMessage = focus ? messages[focus.messageIndex] : undefined;
  const targetRow = useMemo(() => (focusMessage ? rows.findIndex((r) => r.kind === 'message' && r.message === focusMessage) : -1), [rows, focusMessage]);
  const targetCtx: RowContext = useMemo(() => (focus && !ctx.query ? { ...ctx, query: anyOf(focus.terms) } : ctx), [ctx, focus]);
  const revealed = useRef<SearchFocus | null>(null);
  useEffect(() => {
    if (!focus || targetRow < 0 || revealed.current === focus) return;
    // Once per search result: after that the reader scrolls freely.
    revealed.current = focus;
    virtualizer.scrollToIndex(targetRow, { align: 'center' });
    let tries = 0;
    const timer = setInterval(() => {
      // When the message is in the first window, this runs as the session opens, before the list can scroll: until
      // its row is rendered, scroll to it again (a hit at message 370 of 400 stayed at the top).
      const shown = revealTarget(listRef.current, targetRow);
      if (!shown) virtualizer.scrollToIndex(targetRow, { align: 'center' });
      if ((shown && tries > 2) || ++tries > 50) clearInterval(timer);
    }, 40);
    return () => clearInterval(timer);
  }, [focus, targetRow, listRef, virtualizer]);

  useEffect(() => {
    if (!active) return;
    const { row, occurrence } = active;
    if (revealMatch(listRef.current, row, occurrence)) return;
    virtualizer.scrollToIndex(row, { align: 'start' });
    // The row renders (and measures) after the scroll; reveal the mark once it is in the DOM.
    let tries = 0;
    const timer = setInterval(() => {
      if (revealMatch(listRef.current, row, occurrence) || ++tries > 20) clearInterval(timer);
    }, 30);
    return () => clearInterval(timer);
  }, [active, listRef, virtualizer]);

  const onStep = useCallback(
    (delta: 1 | -1) => setStep((was) => stepFind(was, query, (q) => (q === deferred ? matches.length : index ? findMatches(index, q).length : 0), delta)),
    [query, deferred, matches.length, index],
  );

  const items = virtualizer.getVirtualItems();
  const lastShown = items.length ? items[items.length - 1]!.index : 0;
  const more = messagesTotal > messages.length;
  // [ and ] jump to the previous or next prompt the user typed, in a session of any length.
  usePromptJumps({ rows, virtualizer, more, loadingMore, loadMore });
  // Huge sessions arrive in windows: ask for the next one before the reader reaches the end.
  useEffect(() => {
    if (more && !loadingMore && lastShown >= rows.length - PREFETCH_ROWS) void loadMore();
  }, [more, loadingMore, lastShown, rows.length, loadMore]);

  if (messagesTotal === 0) return <p className="muted">No messages recorded.</p>;
  const margin = virtualizer.options.scrollMargin;
  return (
    <div className="conversation">
      {find.open && (
        <FindBar
          query={query}
          onQuery={setQuery}
          current={current}
          total={matches.length}
          onStep={onStep}
          onClose={find.onClose}
          focusSignal={find.focusSignal}
        />
      )}
      {find.open && more && (
        <p className="muted find-scope" data-testid="find-scope">
          Searching the {messages.length.toLocaleString()} messages loaded so far of {messagesTotal.toLocaleString()}; scroll on to load more.
        </p>
      )}
      <div ref={listRef} className="vlist" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((v) => {
          const row = rows[v.index];
          if (!row) return null;
          return (
            <div
              key={v.key}
              data-index={v.index}
              ref={virtualizer.measureElement}
              className="vrow"
              style={{ transform: `translateY(${v.start - margin}px)`, paddingLeft: row.depth * 22 }}
            >
              {row.kind === 'agent' ? (
                <AgentHeading row={row} />
              ) : (
                <MessageRow
                  row={row}
                  ctx={v.index === targetRow ? targetCtx : ctx}
                  current={active?.row === v.index || v.index === targetRow}
                  target={v.index === targetRow}
                />
              )}
            </div>
          );
        })}
      </div>
      {more && (
        <p className="muted load-more" data-testid="messages-loading">
          {loadingMore ? 'Loading' : 'Showing'} {messages.length.toLocaleString()} of {messagesTotal.toLocaleString()} messages…
        </p>
      )}
    </div>
  );
}
