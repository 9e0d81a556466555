// The left-hand list: newest first, filtered client-side, one row per session or unreadable file.
import { useEffect, useRef } from 'react';
import { relativeTime } from '../../shared/relative-time.ts';
import type { SessionSummary } from '../../shared/session.ts';
import { formatLabel, formatTimestamp } from '../format.ts';
import { visibleSessions } from '../session-filter.ts';
import { useAppStore } from '../store-context.ts';
import { useNow } from '../use-now.ts';
import { VaultListFilters } from './VaultListFilters.tsx';
import { VaultRowMarks, VaultRowTags } from './VaultRowMarks.tsx';
import { CompareRowMark } from './CompareRowMark.tsx';

function updatedIso(s: SessionSummary): string | null {
  return s.updatedAt ?? (s.mtimeMs > 0 ? new Date(s.mtimeMs).toISOString() : null);
}

function RowDetails({ s }: { s: SessionSummary }) {
  if (s.unreadable) {
    return <span className="row-unreadable">Unreadable: {s.unreadable.message}</span>;
  }
  const where = [s.projectName ?? s.projectPath, s.branch].filter(Boolean).join(' · ');
  // An in-flight session's outcome is usually "open" too: say it once.
  const state = s.outcomeStatus && s.outcomeStatus !== s.status ? `${s.status} · ${s.outcomeStatus}` : s.status;
  return (
    <>
      {where && <span className="row-project">{where}</span>}
      <span className={`status status-${s.outcomeStatus ?? s.status}`}>{state}</span>
    </>
  );
}

function SessionRow(props: { s: SessionSummary; selected: boolean; open: boolean; now: number; onOpen(key: string, toggle: boolean): void }) {
  const { s, selected, open, now, onOpen } = props;
  const updated = updatedIso(s);
  const classes = ['row', selected && 'selected', open && 'open', s.unreadable && 'unreadable', s.sourceGone && 'source-gone'].filter(Boolean).join(' ');
  return (
    <li
      className={classes}
      role="option"
      aria-selected={selected}
      data-testid="session-row"
      data-key={s.key}
      data-unreadable={s.unreadable ? 'true' : undefined}
      onClick={(e) => onOpen(s.key, e.ctrlKey || e.metaKey)}
    >
      <div className="row-line">
        <span className="row-title" data-testid="session-title">
          {s.title}
        </span>
        {s.childCount > 0 && (
          <span className="badge subagent-count" data-testid="child-count" title={`${s.childCount} sub-agent session${s.childCount === 1 ? '' : 's'}`}>
            {s.childCount} sub-agent{s.childCount === 1 ? '' : 's'}
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
      <VaultRowTags s={s} />
    </li>
  );
}

export function SessionList() {
  const sessions = useAppStore((s) => s.sessions);
  const filter = useAppStore((s) => s.filter);
  const selectedKey = useAppStore((s) => s.selectedKey);
  const openKey = useAppStore((s) => s.open?.key ?? null);
  const loaded = useAppStore((s) => s.loaded);
  const listError = useAppStore((s) => s.listError);
  const openSession = useAppStore((s) => s.openSession);
  const compareRowClick = useAppStore((s) => s.compareRowClick);
  const now = useNow(30_000);
  const listRef = useRef<HTMLUListElement>(null);
  const visible = visibleSessions(sessions, filter);

  useEffect(() => {
    if (!selectedKey) return;
    const row = listRef.current?.querySelector(`[data-key="${CSS.escape(selectedKey)}"]`);
    row?.scrollIntoView({ block: 'nearest' });
  }, [selectedKey]);

  return (
    <div className="session-list-wrap">
      <VaultListFilters />
      {listError && (
        <div className="error-banner" role="alert">
          Could not load sessions: {listError}
        </div>
      )}
      <ul
        ref={listRef}
        className="session-list"
        role="listbox"
        aria-label="Sessions"
        tabIndex={0}
        data-testid="session-list"
      >
        {visible.map((s) => (
          <SessionRow
            key={s.key}
            s={s}
            selected={s.key === selectedKey}
            open={s.key === openKey}
            now={now}
            onOpen={(key, toggle) => {
              // Ctrl/⌘-click marks a row for comparing, and a click while picking chooses the partner.
              if (!compareRowClick(key, toggle)) void openSession(key);
            }}
          />
        ))}
      </ul>
      {!loaded && !listError && <p className="muted list-note">Loading sessions…</p>}
      {loaded && visible.length === 0 && sessions.length > 0 && (
        <p className="muted list-note">No session matches “{filter}”. Esc clears the filter.</p>
      )}
    </div>
  );
}
