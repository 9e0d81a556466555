// The comparison view: both sessions named with a swap switch, header diff and token chart, where the differences are, and the aligned turns.
import { useEffect, useMemo, useState } from 'react';
import type { ComparedSide, Comparison } from '../../../shared/compare/comparison.ts';
import { differences, stepDifference } from './compare-rows.ts';
import { formatLabel } from '../../format.ts';
import { isShortcutTarget } from '../../key-target.ts';
import { useAppStore } from '../../store/store-context.ts';
import { CompareChart } from './CompareChart.tsx';
import { CompareFiles } from './CompareFiles.tsx';
import { CompareHeader } from './CompareHeader.tsx';
import { CompareOperations } from './CompareOperations.tsx';
import { CompareSummaryBar } from './CompareSummaryBar.tsx';
import { CompareTranscript } from './CompareTranscript.tsx';
import './compare-view.css';

type Tab = 'transcript' | 'files' | 'operations';

function Side({ side, label }: { side: ComparedSide | null; label: 'A' | 'B' }) {
  return (
    <div className={`cmp-side side-${label.toLowerCase()}`} data-testid={`compare-side-${label.toLowerCase()}`}>
      <span className="cmp-side-label">{label}</span>
      {side ? (
        <>
          <span className="cmp-side-title" title={side.key}>
            {side.title}
          </span>
          <span className={`badge format format-${side.format}`}>{formatLabel(side.format)}</span>
        </>
      ) : (
        <span className="muted">…</span>
      )}
    </div>
  );
}

function Body({ c }: { c: Comparison }) {
  const [tab, setTab] = useState<Tab>('transcript');
  const [current, setCurrent] = useState<number | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());
  const diffs = useMemo(() => differences(c), [c]);

  const step = (delta: 1 | -1) => {
    setTab('transcript');
    setCurrent((now) => stepDifference(diffs, now, delta));
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented || !isShortcutTarget(e.target)) return;
      if (e.key !== 'n' && e.key !== 'p') return;
      e.preventDefault();
      setTab('transcript');
      setCurrent((now) => stepDifference(diffs, now, e.key === 'n' ? 1 : -1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [diffs]);

  const tabs: Array<{ id: Tab; label: string; count: number }> = [
    { id: 'transcript', label: 'Turns', count: c.rows.length },
    { id: 'files', label: 'Files', count: c.files.length },
    { id: 'operations', label: 'Operations', count: c.operationRows.length },
  ];
  return (
    <>
      <div className="cmp-overview">
        <CompareHeader rows={c.header} />
        <CompareChart c={c} />
      </div>
      <CompareSummaryBar
        c={c}
        diffs={diffs}
        current={current}
        onStep={step}
        onJump={(row) => {
          setTab('transcript');
          setCurrent(row);
        }}
      />
      <nav className="tabs" role="tablist">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            data-tab={t.id}
            aria-selected={t.id === tab}
            className={t.id === tab ? 'tab active' : 'tab'}
            onClick={() => setTab(t.id)}
          >
            {t.label}
            <span className="tab-count">{t.count}</span>
          </button>
        ))}
      </nav>
      {/* The pane scrolls on its own, so the differences bar above it stays in view. */}
      <div className="tab-body cmp-pane" role="tabpanel">
        {tab === 'transcript' && (
          <CompareTranscript c={c} current={current} expanded={expanded} onExpand={(rows) => setExpanded((prev) => new Set([...prev, ...rows]))} />
        )}
        {tab === 'files' && <CompareFiles files={c.files} />}
        {tab === 'operations' && <CompareOperations a={c.a} b={c.b} rows={c.operationRows} />}
      </div>
    </>
  );
}

export function Compare() {
  const view = useAppStore((s) => s.compare);
  const swap = useAppStore((s) => s.swapCompare);
  const close = useAppStore((s) => s.closeCompare);
  if (!view) return null;
  const c = view.comparison;
  // Swapping keeps the rows in place, so where the reader was survives it.
  const pairKey = [view.a, view.b].sort().join('\u0000');
  return (
    <section className="compare" data-testid="compare-view" data-a={view.a} data-b={view.b} aria-busy={view.loading}>
      <header className="cmp-title">
        <Side side={c?.a ?? null} label="A" />
        <button type="button" className="cmp-swap" data-testid="compare-swap" onClick={swap} title="Swap sides: B on the left">
          ⇄ Swap
        </button>
        <Side side={c?.b ?? null} label="B" />
        <span className="spacer" />
        {c && <span className="muted cmp-elapsed">aligned in {c.elapsedMs} ms</span>}
        <button type="button" data-testid="compare-close" onClick={close} title="Back to the session">
          Close
        </button>
      </header>
      {view.error && (
        <div className="error-banner" role="alert" data-testid="compare-error">
          Could not compare these sessions: {view.error}
        </div>
      )}
      {view.loading && !c && <p className="muted">Comparing…</p>}
      {c && <Body key={pairKey} c={c} />}
    </section>
  );
}
