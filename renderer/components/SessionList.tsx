// The left-hand list: every session in the chosen order, or the search's results with snippets; virtualized for 100,000 rows.
import { memo, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { relativeTime } from '../../shared/relative-time.ts';
import type { SnippetPart } from '../../shared/search-api.ts';
import type { SessionSummary } from '../../shared/session.ts';
import { fillDragOut } from './bundle/drag-out.ts';
import { formatLabel, formatTimestamp, plural } from '../format.ts';
import { shownSessions } from '../shown-sessions.ts';
import { useAppStore } from '../store/store-context.ts';
import { useNow } from '../use-now.ts';
import { useVirtualRows } from '../use-virtual-rows.ts';
import { LIST_PAINTED, markFirstPaint } from '../paint-marks.ts';
import { VaultListFilters } from './vault/VaultListFilters.tsx';
import { VaultRowMarks, VaultRowTags } from './vault/VaultRowMarks.tsx';
import { CompareRowMark } from './compare/CompareRowMark.tsx';
import { FacetPanel } from './search/FacetPanel.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import { isoFromMs } from '../../shared/iso-time.ts';

/** Rows rendered beyond the visible ones, each way: enough for smooth scrolling, few enough for 100,000 rows. */
const OVERSCAN = 15;
/** How close to the end of the loaded results the viewport may come before the next page is asked for. */
const PREFETCH_ROWS = 20;

function updatedIso(s: SessionSummary): string | null {
  return s.updatedAt ?? (s.mtimeMs > 0 ? isoFromMs(s.mtimeMs) : null);
}

function RowDetails({ s }: { s: SessionSummary }) {
  if (s.unreadable) {
    return <span className="row-unreadable">Unreadable: {s.unreadable.message}</span>;
  }
  const where = [s.projectName ?? s.projectPath, s.branch].filter(Boolean).join(' · ');
  // An in-flight session's outcome is usually "open" too: say it once. "unknown" (a tool that records no state) says
  // nothing a row needs: left out, as the detail's header still shows it.
  const lifecycle = s.status === 'unknown' ? null : s.status;
  const outcome = s.outcomeStatus && s.outcomeStatus !== s.status ? s.outcomeStatus : null;
  const state = [lifecycle, outcome].filter(Boolean).join(' · ');
  return (
    <>
      {s.machine && (
        <span className="badge row-machine" data-testid="row-machine" title={`Pushed from the machine ${s.machine}`}>
          {s.machine}
        </span>
      )}
      {where && <span className="row-project">{where}</span>}
      {state && <span className={`status status-${s.outcomeStatus ?? s.status}`}>{state}</span>}
    </>
  );
}

/** The matched text with its hits in <mark>; every piece is a text node, never HTML. */
export function Snippet({ parts }: { parts: readonly SnippetPart[] }) {
  if (parts.length === 0) return null;
  return (
    <div className="row-snippet" data-testid="row-snippet">
      {parts.map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </div>
  );
}

interface RowProps {
  s: SessionSummary;
  index: number;
  snippet: readonly SnippetPart[] | null;
  selected: boolean;
  open: boolean;
  now: number;
  measureElement(el: Element | null): void;
  top: number;
  onOpen(key: string, toggle: boolean): void;
}

const SessionRow = memo(function SessionRow(props: RowProps) {
  const { s, selected, open, now, onOpen, measureElement } = props;
  const updated = updatedIso(s);
  const classes = ['row', selected && 'selected', open && 'open', s.unreadable && 'unreadable', s.sourceGone && 'source-gone'].filter(Boolean).join(' ');
  const dragOutUrl = useAppStore((st) => st.dragOutUrl);
  const downloadUrl = s.unreadable ? null : dragOutUrl(s.key);
  return (
    <div
      ref={measureElement}
      className={classes}
      role="option"
      aria-selected={selected}
      data-index={props.index}
      data-testid="session-row"
      data-key={s.key}
      data-unreadable={s.unreadable ? 'true' : undefined}
      style={{ transform: `translateY(${props.top}px)` }}
      draggable={downloadUrl !== null}
      title={downloadUrl ? 'Drag out of the window to save this session as a bundle (secrets redacted)' : undefined}
      onDragStart={downloadUrl ? (e) => fillDragOut(e.dataTransfer, s, downloadUrl) : undefined}
      onClick={(e) => onOpen(s.key, e.ctrlKey || e.metaKey)}
    >
      <div className="row-line">
        <span className="row-title" data-testid="session-title">
          {s.title}
        </span>
        {s.childCount > 0 && (
          <span className="badge subagent-count" data-testid="child-count" title={plural(s.childCount, 'sub-agent session')}>
            {plural(s.childCount, 'sub-agent')}
          </span>
        )}
        <CompareRowMark rowKey={s.key} />
        <VaultRowMarks s={s} />
        <span className={`badge format format-${s.format}`}>{formatLabel(s.format)}</span>
      </div>
      <div className="row-line row-meta">
        <RowDetails s={s} />
        <time className="row-time" dateTime={updated ?? undefined} title={formatTimestamp(updated)}>
          {relativeTime(updated, now)}
        </time>
      </div>
      {props.snippet && <Snippet parts={props.snippet} />}
      <VaultRowTags s={s} />
    </div>
  );
});

export function SessionList() {
  const visible = useAppStore(shownSessions);
  const filter = useAppStore((s) => s.filter);
  const searching = useAppStore((s) => s.filter.trim() !== '' && s.search !== null && s.search.error === null);
  const resultFor = useAppStore((s) => s.resultFor);
  const answeredText = useAppStore((s) => (s.filter.trim() ? (s.search?.text ?? null) : null));
  // Busy from the keystroke until the index answers this very text: rows may still move under the pointer.
  const busy = useAppStore((s) => s.filter.trim() !== '' && (s.search === null || s.search.loading || s.search.text !== s.filter.trim()));
  const hasMore = useAppStore((s) => s.search !== null && (s.search.results.length < s.search.total || s.search.totalCapped === true));
  const loadMoreResults = useAppStore((s) => s.loadMoreResults);
  const sessionCount = useAppStore((s) => s.sessions.length);
  const selectedKey = useAppStore((s) => s.selectedKey);
  const openKey = useAppStore((s) => s.open?.key ?? null);
  const loaded = useAppStore((s) => s.loaded);
  const listError = useAppStore((s) => s.listError);
  const openListed = useAppStore((s) => s.openListed);
  const compareRowClick = useAppStore((s) => s.compareRowClick);
  // Subscribing to the results keeps snippets current when a search answers for the same rows.
  useAppStore((s) => s.search?.results);
  const now = useNow(30_000);
  const { listRef, virtualizer } = useVirtualRows({
    count: visible.length,
    estimateSize: () => (searching ? 84 : 50),
    getItemKey: (i) => visible[i]?.key ?? i,
    overscan: OVERSCAN,
  });

  // Read from effects only: a refresh that shifts the selected row must not pull the view back to it.
  const visibleRef = useRef(visible);
  useLayoutEffect(() => {
    visibleRef.current = visible;
  });
  useEffect(() => {
    const index = selectedKey ? visibleRef.current.findIndex((s) => s.key === selectedKey) : -1;
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [selectedKey, virtualizer]);
  // The first time the list shows sessions (the first-paint bench measures from here).
  useEffect(() => {
    if (loaded && visible.length) markFirstPaint(LIST_PAINTED);
  }, [loaded, visible.length]);
  // New results start at the top.
  useEffect(() => {
    if (answeredText) virtualizer.scrollToOffset(0);
  }, [answeredText, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const lastShown = items.length ? items[items.length - 1]!.index : 0;
  useEffect(() => {
    if (hasMore && lastShown >= visible.length - PREFETCH_ROWS) void loadMoreResults();
  }, [hasMore, lastShown, visible.length, loadMoreResults]);

  const onOpen = useCallback(
    (key: string, toggle: boolean) => {
      // Ctrl/⌘-click marks a row for comparing, and a click while picking chooses the partner.
      if (!compareRowClick(key, toggle)) void openListed(key);
    },
    [compareRowClick, openListed],
  );
  const margin = virtualizer.options.scrollMargin;

  return (
    <>
      <ListToolbar />
      {/* Outside the list's scroller, in a bounded area of its own: open facets never push the rows out of sight. */}
      <FacetPanel />
      <div className="session-list-wrap">
        <VaultListFilters />
        {listError && (
          <div className="error-banner" role="alert">
            Could not load sessions: {listError}
          </div>
        )}
        <div
          ref={listRef}
          className="session-list vlist"
          role="listbox"
          aria-label="Sessions"
          tabIndex={0}
          data-testid="session-list"
          aria-busy={busy}
          style={{ height: virtualizer.getTotalSize() }}
        >
          {items.map((v) => {
            const s = visible[v.index];
            if (!s) return null;
            return (
              <SessionRow
                key={v.key}
                s={s}
                index={v.index}
                snippet={searching ? (resultFor(s.key)?.snippet ?? null) : null}
                selected={s.key === selectedKey}
                open={s.key === openKey}
                now={now}
                measureElement={virtualizer.measureElement}
                top={v.start - margin}
                onOpen={onOpen}
              />
            );
          })}
        </div>
        {!loaded && !listError && <p className="muted list-note">Loading sessions…</p>}
        {loaded && visible.length === 0 && (sessionCount > 0 || searching) && filter.trim() && (
          <p className="muted list-note">No session matches “{filter}”. Esc clears the box.</p>
        )}
      </div>
    </>
  );
}
