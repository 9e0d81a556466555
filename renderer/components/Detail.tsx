// The right-hand detail view: header plus tabs for conversation, operations, usage, todos, config, warnings and raw; the usage dashboard when no session is open.
import { lazy, Suspense, useEffect, useState } from 'react';
import { SessionInfo } from './SessionInfo.tsx';
import { ImagesTab, sessionImages } from './ImagesTab.tsx';
import type { OpenedSession } from '../../shared/api.ts';
import { formatLabel } from '../format.ts';
import type { SearchFocus } from '../store/store-search.ts';
import { useAppStore } from '../store/store-context.ts';
import { Conversation, type FindControl } from './transcript/Conversation.tsx';
import { DetailHeader } from './DetailHeader.tsx';
import { SummaryCard } from './summary/SummaryCard.tsx';
import { Operations } from './transcript/Operations.tsx';
import { RawSourceView } from './transcript/RawSourceView.tsx';
import { ConfigTable, Todos, Warnings } from './SessionFacts.tsx';
import { UsageLanding } from './usage/UsageLanding.tsx';
import { inDialog } from '../key-target.ts';

/** The session's cumulative token and cost curve, drawn with the dashboard's charts (their own chunk). */
const SessionUsageCurve = lazy(() => import('./usage/SessionUsageCurve.tsx'));

type Tab = 'conversation' | 'operations' | 'images' | 'usage' | 'todos' | 'config' | 'info' | 'warnings' | 'raw';

function tabsFor(session: OpenedSession | null): Array<{ id: Tab; label: string; count?: number }> {
  if (!session) return [{ id: 'raw', label: 'Raw' }];
  const tabs: Array<{ id: Tab; label: string; count?: number }> = [
    { id: 'conversation', label: 'Conversation', count: session.messagesTotal },
    { id: 'operations', label: 'Operations', count: session.operations.length },
    { id: 'usage', label: 'Usage' },
    { id: 'todos', label: 'Todos', count: session.todos.length },
    { id: 'config', label: 'Config', count: session.config.length },
  ];
  const images = sessionImages(session).length;
  // Screenshots pasted into the session, as a grid: only where there are some.
  if (images > 0) tabs.splice(2, 0, { id: 'images', label: 'Images', count: images });
  // Every fact, the format's extras, tags and note: out of the header, so the conversation starts near the top.
  tabs.push({ id: 'info', label: 'Info' });
  if (session.warnings.length > 0) tabs.push({ id: 'warnings', label: 'Warnings', count: session.warnings.length });
  tabs.push({ id: 'raw', label: 'Raw' });
  return tabs;
}

function TabBody(props: { tab: Tab; session: OpenedSession | null; sessionKey: string; find: FindControl; focus: SearchFocus | null }) {
  const { tab, session, sessionKey } = props;
  if (tab === 'raw' || !session) return <RawSourceView sessionKey={sessionKey} files={session?.sourceFiles ?? []} />;
  switch (tab) {
    case 'conversation':
      return (
        <Conversation
          key={sessionKey}
          sessionKey={sessionKey}
          messages={session.messages}
          messagesTotal={session.messagesTotal}
          operations={session.operations}
          find={props.find}
          focus={props.focus}
        />
      );
    case 'operations':
      return <Operations key={sessionKey} sessionKey={sessionKey} operations={session.operations} />;
    case 'usage':
      return (
        <Suspense fallback={<p className="muted">Loading the chart…</p>}>
          <SessionUsageCurve session={session} />
        </Suspense>
      );
    case 'images':
      return <ImagesTab session={session} />;
    case 'info':
      return <SessionInfo session={session} />;
    case 'todos':
      return <Todos todos={session.todos} />;
    case 'config':
      return <ConfigTable config={session.config} />;
    case 'warnings':
      return <Warnings warnings={session.warnings} />;
  }
}

/** Esc in another text field (the session filter) is that field's business. */
function typingElsewhere(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('[data-testid="find-bar"]')) return false;
  return target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable;
}

export function Detail() {
  const open = useAppStore((s) => s.open);
  const summary = useAppStore((s) => (open ? s.sessions.find((x) => x.key === open.key) : undefined));
  const tab = useAppStore((s) => s.detailTab) as Tab;
  const setTab = useAppStore((s) => s.setDetailTab) as (tab: Tab) => void;
  const [findOpen, setFindOpen] = useState(false);
  const [findSignal, setFindSignal] = useState(0);
  const hasSession = open?.session != null;

  // Ctrl/Cmd+F belongs to the detail view only while a session is shown in it; Esc closes the bar.
  useEffect(() => {
    if (!hasSession) return;
    const onKey = (e: KeyboardEvent) => {
      // A dialog's keys are its own: Ctrl+F there does not open the find bar behind it.
      if (inDialog(e.target)) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        setTab('conversation');
        setFindOpen(true);
        setFindSignal((n) => n + 1);
      } else if (e.key === 'Escape' && findOpen && !typingElsewhere(e.target)) {
        e.preventDefault();
        setFindOpen(false);
      }
    };
    // Capture: the find bar answers before the list's own keys (Esc also clears the session filter).
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [hasSession, findOpen, setTab]);

  // No session open: the usage dashboard of what the search box matches.
  if (!open) return <UsageLanding />;

  const session = open.session;
  const tabs = tabsFor(session);
  const active = tabs.some((t) => t.id === tab) ? tab : (tabs[0]?.id ?? 'raw');
  const unreadableMessage = open.unreadable
    ? `${open.unreadable.message} (${open.unreadable.code})`
    : open.errorCode === 'UNREADABLE' && !session
      ? open.error
      : null;

  return (
    <section className="detail" data-testid="detail" data-key={open.key} aria-busy={open.loading}>
      {open.removed && (
        <div className="warn-banner" role="status">
          This session was removed from disk; showing the last loaded copy.
        </div>
      )}
      {session ? (
        <DetailHeader session={session} onShowWarnings={() => setTab('warnings')} />
      ) : (
        <header className="detail-header">
          <div className="detail-title-line">
            <h1 data-testid="detail-title">{summary?.title ?? open.key}</h1>
            {summary && <span className={`badge format format-${summary.format}`}>{formatLabel(summary.format)}</span>}
          </div>
          {summary && <p className="mono muted">{summary.primaryPath}</p>}
        </header>
      )}
      {session && <SummaryCard key={open.key} sessionKey={open.key} />}
      {unreadableMessage && (
        <div className="unreadable-banner" data-testid="unreadable-reason" role="alert">
          <strong>This file could not be read.</strong> {unreadableMessage}
        </div>
      )}
      {open.error && !unreadableMessage && (
        <div className="error-banner" role="alert" data-testid="detail-error">
          {session ? 'Could not reload this session: ' : 'Could not open this session: '}
          {open.error}
        </div>
      )}
      {open.loading && !session && <p className="muted">Loading session…</p>}
      {(session || !open.loading) && (
        <>
          <nav className="tabs" role="tablist">
            {tabs.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                data-tab={t.id}
                aria-selected={t.id === active}
                className={t.id === active ? 'tab active' : 'tab'}
                onClick={() => setTab(t.id)}
              >
                {t.label}
                {t.count !== undefined && <span className="tab-count">{t.count}</span>}
              </button>
            ))}
          </nav>
          <div className="tab-body" role="tabpanel">
            <TabBody
              tab={active}
              session={session}
              sessionKey={open.key}
              focus={open.focus ?? null}
              find={{ open: findOpen, focusSignal: findSignal, onClose: () => setFindOpen(false) }}
            />
          </div>
        </>
      )}
    </section>
  );
}
