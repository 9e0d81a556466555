// One chart card: title, the ECharts drawing (SVG, or canvas for many cells; an image with a summary for screen readers), PNG/SVG export and its data as a table.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { init, type ECElementEvent, type EChartsCoreOption, type EChartsType } from './echarts-setup.ts';
import { chartSvg, savePng, saveSvg } from './chart-export.ts';
import { whenNearOrIdle } from './draw-later.ts';
import { followResize } from './follow-resize.ts';

export interface TableRow {
  cells: ReactNode[];
  /** Narrows the list to this row's sessions (the same as clicking its bar or cell). */
  pick?: () => void;
}

export interface ChartTable {
  columns: string[];
  rows: TableRow[];
}

interface Props {
  /** data-testid suffix: usage-chart-<id>. */
  id: string;
  title: string;
  /** What the chart shows, in one or two sentences: the image's accessible name. */
  summary: string;
  option: EChartsCoreOption;
  /** The chart's data as a table: built only when its table is opened (a year of days is thousands of formatted cells). */
  table: () => ChartTable;
  height?: number;
  /** A click on a bar or cell. */
  onPick?: (event: ECElementEvent) => void;
  /** Said instead of the chart when there is nothing to draw. */
  empty?: string | null;
  /** Drawn after the first paint (when the card nears the viewport or the page is idle), not in the render that shows it. */
  later?: boolean;
  /** Called once, after the chart's first drawing. */
  onDrawn?: () => void;
  /** Canvas for charts of a thousand shapes and more (the heatmap), which SVG elements make slow to draw; saved as SVG all the same. */
  renderer?: 'svg' | 'canvas';
}

export function EChart({ id, title, summary, option, table, height = 240, onPick, empty, later = false, onDrawn, renderer = 'svg' }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const pick = useRef(onPick);
  const drawn = useRef(onDrawn);
  const reported = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const [due, setDue] = useState(!later);
  // The table's rows exist only while it is open: nine tables of a year's days are thousands of elements nobody sees.
  const [tableOpen, setTableOpen] = useState(false);
  useEffect(() => {
    pick.current = onPick;
    drawn.current = onDrawn;
  });

  useEffect(() => {
    const el = host.current;
    if (due || !el) return;
    return whenNearOrIdle(el, () => setDue(true));
  }, [due]);

  useEffect(() => {
    const el = host.current;
    if (!due || !el) return;
    const c = init(el, null, { renderer });
    chart.current = c;
    c.on('click', (e) => pick.current?.(e as ECElementEvent));
    const stopResizing = followResize(el, () => c.resize());
    return () => {
      stopResizing();
      c.dispose();
      chart.current = null;
    };
  }, [due, renderer]);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    c.setOption(option, { notMerge: true });
    if (!reported.current) {
      reported.current = true;
      drawn.current?.();
    }
  }, [option, due]);

  const save = (kind: 'png' | 'svg') => {
    const c = chart.current;
    if (!c) return;
    setError(null);
    const svg = chartSvg(c, option, renderer === 'canvas');
    if (kind === 'svg') saveSvg(svg, title);
    else savePng(c, svg, title).catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  };

  return (
    <figure className="usage-chart" data-testid={`usage-chart-${id}`}>
      <figcaption className="usage-chart-head">
        <h3>{title}</h3>
        <span className="spacer" />
        <button type="button" className="small" onClick={() => save('png')} aria-label={`Save "${title}" as PNG`} disabled={!!empty || !due}>
          PNG
        </button>
        <button type="button" className="small" onClick={() => save('svg')} aria-label={`Save "${title}" as SVG`} disabled={!!empty || !due}>
          SVG
        </button>
      </figcaption>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {empty && <p className="muted usage-empty">{empty}</p>}
      <div
        ref={host}
        className={empty ? 'usage-chart-canvas hidden' : 'usage-chart-canvas'}
        role="img"
        aria-label={summary}
        data-testid="usage-chart-canvas"
        style={{ height }}
      />
      {!empty && (
        <details className="usage-chart-data" onToggle={(e) => setTableOpen(e.currentTarget.open)}>
          <summary>Data table</summary>
          {tableOpen && <DataTable title={title} table={table()} />}
        </details>
      )}
    </figure>
  );
}

function DataTable({ title, table }: { title: string; table: ChartTable }) {
  return (
    <table>
      <caption className="sr-only">{title}</caption>
      <thead>
        <tr>
          {table.columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
          {table.rows.some((r) => r.pick) && (
            <th scope="col">
              <span className="sr-only">Filter</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((r, i) => (
          <tr key={i}>
            {r.cells.map((c, j) =>
              j === 0 ? (
                <th key={j} scope="row">
                  {c}
                </th>
              ) : (
                <td key={j}>{c}</td>
              ),
            )}
            {r.pick && (
              <td>
                <button type="button" className="small" onClick={r.pick}>
                  Show sessions
                </button>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
