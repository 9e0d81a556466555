// The usage dashboard (lazy chunk): totals, the current 5-hour block, and the charts, all for what the search box matches.
import { useEffect, useMemo, useRef } from 'react';
import type { DashboardBreakdown, UsageDashboard as Figures } from '../../../shared/usage-api.ts';
import { useAppStore } from '../../store/store-context.ts';
import { DASHBOARD_CHARTS_DRAWN, DASHBOARD_PAINTED, markFirstPaint } from '../../paint-marks.ts';
import '../../usage.css';
import { useChartTheme } from './chart-theme.ts';
import { EChart } from './EChart.tsx';
import { BlockCard } from './BlockCard.tsx';
import type { ECElementEvent } from './echarts-setup.ts';
import { dayFilters, groupFilter, hourFilters, modelFilter, narrowTo } from './usage-filters.ts';
import { cacheOption, compact, distributionOption, heatmapOption, percent, rankedOption, stackedDaysOption, toolsOption, usd } from './usage-options.ts';
import { daysOf } from './usage-days.ts';

const BREAKDOWNS: Array<{ id: DashboardBreakdown; label: string }> = [
  { id: 'model', label: 'Model' },
  { id: 'source', label: 'Source' },
  { id: 'project', label: 'Project' },
];

const costText = (usdValue: number, unpriced: number) => (unpriced ? `≥ ${usd(usdValue)} (${unpriced.toLocaleString()} calls unpriced)` : usd(usdValue));

function Totals({ data }: { data: Figures }) {
  const t = data.totals;
  return (
    <dl className="usage-figures" data-testid="usage-dashboard-totals">
      <div>
        <dt>Tokens</dt>
        <dd data-testid="usage-total-tokens">{t.totalTokens.toLocaleString()}</dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd data-testid="usage-total-cost">{costText(t.costUsd, t.unpricedCalls)}</dd>
      </div>
      <div>
        <dt>Sessions with usage</dt>
        <dd>{t.sessions.toLocaleString()}</dd>
      </div>
      <div>
        <dt>Read from cache</dt>
        <dd title="Cache reads as a share of all input tokens (input, cache reads and cache writes)">{percent(t.cacheHitRate)}</dd>
      </div>
    </dl>
  );
}

function Charts({ data }: { data: Figures }) {
  const theme = useChartTheme();
  const filter = useAppStore((s) => s.filter);
  const setFilter = useAppStore((s) => s.setFilter);
  const narrow = (filters: string[]) => setFilter(narrowTo(filter, filters));
  const pickDay = (day: string, group?: string) => {
    const g = group ? groupFilter(data.breakdown, group) : null;
    narrow([...dayFilters(day), ...(g ? [g] : [])]);
  };
  const onDayBar = (e: ECElementEvent) => typeof e.name === 'string' && pickDay(e.name, e.seriesName);
  const onCell = (e: ECElementEvent) => {
    const [hour, dayIndex] = e.value as [number, number, number];
    const day = data.heatmapDays[dayIndex];
    if (day !== undefined) narrow(hourFilters(day, hour));
  };
  const onProject = (e: ECElementEvent) => typeof e.name === 'string' && e.name !== '(none)' && narrow([`project:"${e.name.replaceAll('"', '')}"`]);
  const pickModel = (name: string) => {
    const f = modelFilter(name);
    if (f) narrow([f]);
  };
  const onModel = (e: ECElementEvent) => typeof e.name === 'string' && pickModel(e.name);

  const options = useMemo(
    () => ({
      tokens: stackedDaysOption(data, theme, 'tokens'),
      cost: stackedDaysOption(data, theme, 'cost'),
      heatmap: heatmapOption(data, theme),
      projects: rankedOption(
        theme,
        data.projects.map((p) => p.name),
        data.projects.map((p) => p.totalTokens),
        'Tokens',
        compact,
        2,
      ),
      models: rankedOption(
        theme,
        data.models.map((m) => m.name),
        data.models.map((m) => m.totalTokens),
        'Tokens',
        compact,
        0,
      ),
      tools: toolsOption(data, theme),
      lengths: distributionOption(theme, data.lengths, 'Session length', 3),
      turns: distributionOption(theme, data.turns, 'Turns (prompts) per session', 6),
      cache: cacheOption(data, theme),
    }),
    [data, theme],
  );
  // The first row (tokens and cost per day) is drawn in the render that shows the dashboard with its totals; the rest right
  // after that first paint, each as it nears the viewport or the page is idle (CHARTS below counts them all for the "all
  // drawn" mark). The heatmap (60 days × 24 hours of cells) alone took about as long to draw as the two day charts.
  const drawnCount = useRef(0);
  const onDrawn = () => {
    if (++drawnCount.current === CHARTS) markFirstPaint(DASHBOARD_CHARTS_DRAWN);
  };
  const { days, perDay } = useMemo(() => daysOf(data.days), [data.days]);
  const range = data.from ? `${data.from} to ${data.to}` : 'no days';
  const noUsage = data.days.length ? null : 'No token usage in these sessions.';
  const sumSessions = (rows: Array<{ sessions: number }>) => rows.reduce((n, r) => n + r.sessions, 0);

  return (
    <div className="usage-grid">
      <EChart
        id="tokens"
        onDrawn={onDrawn}
        title="Tokens per day"
        summary={`Tokens per day by ${data.breakdown}, ${range}: ${data.totals.totalTokens.toLocaleString()} tokens in all, over ${days.length} days.`}
        option={options.tokens}
        onPick={onDayBar}
        empty={noUsage}
        table={() => ({
          columns: ['Day', 'Tokens', 'Largest group'],
          rows: days.map((day) => ({
            cells: [
              day,
              perDay(day)
                .reduce((n, d) => n + d.totalTokens, 0)
                .toLocaleString(),
              [...perDay(day)].sort((a, b) => b.totalTokens - a.totalTokens)[0]?.group ?? '',
            ],
            pick: () => pickDay(day),
          })),
        })}
      />
      <EChart
        id="cost"
        onDrawn={onDrawn}
        title="Cost per day (US$)"
        summary={`Cost per day by ${data.breakdown}, ${range}: ${costText(data.totals.costUsd, data.totals.unpricedCalls)} in all.`}
        option={options.cost}
        onPick={onDayBar}
        empty={noUsage}
        table={() => ({
          columns: ['Day', 'Cost'],
          rows: days.map((day) => ({
            cells: [
              day,
              costText(
                perDay(day).reduce((n, d) => n + d.costUsd, 0),
                perDay(day).reduce((n, d) => n + d.unpricedCalls, 0),
              ),
            ],
            pick: () => pickDay(day),
          })),
        })}
      />
      <EChart
        id="heatmap"
        later
        renderer="canvas"
        onDrawn={onDrawn}
        title="Activity by day and hour"
        summary={`Model calls per hour of the day for the ${data.heatmapDays.length} most recent days with usage; busiest hour: ${busiest(data)}.`}
        option={options.heatmap}
        onPick={onCell}
        height={Math.max(200, 18 * data.heatmapDays.length + 90)}
        empty={noUsage}
        table={() => ({
          columns: ['Day', 'Hour', 'Calls', 'Tokens'],
          rows: data.heatmap.map((c) => ({
            cells: [c.day, `${String(c.hour).padStart(2, '0')}:00`, c.calls.toLocaleString(), c.totalTokens.toLocaleString()],
            pick: () => narrow(hourFilters(c.day, c.hour)),
          })),
        })}
      />
      <EChart
        id="projects"
        later
        onDrawn={onDrawn}
        title="Top projects by tokens"
        summary={`The ${data.projects.length} projects with the most tokens; first: ${data.projects[0]?.name ?? 'none'}.`}
        option={options.projects}
        onPick={onProject}
        empty={data.projects.length ? null : 'No project has token usage here.'}
        table={() => ({
          columns: ['Project', 'Tokens', 'Cost', 'Sessions'],
          rows: data.projects.map((p) => ({
            cells: [p.name, p.totalTokens.toLocaleString(), usd(p.costUsd), p.sessions],
            pick: p.name === '(none)' ? undefined : () => narrow([`project:"${p.name.replaceAll('"', '')}"`]),
          })),
        })}
      />
      <EChart
        id="models"
        later
        onDrawn={onDrawn}
        title="Top models by tokens"
        summary={`The ${data.models.length} models with the most tokens; first: ${data.models[0]?.name ?? 'none'}.`}
        option={options.models}
        onPick={onModel}
        empty={data.models.length ? null : 'No model has token usage here.'}
        table={() => ({
          columns: ['Model', 'Tokens', 'Cost', 'Calls'],
          rows: data.models.map((m) => ({
            cells: [m.name, m.totalTokens.toLocaleString(), costText(m.costUsd, m.unpricedCalls), m.calls.toLocaleString()],
            pick: modelFilter(m.name) ? () => pickModel(m.name) : undefined,
          })),
        })}
      />
      <EChart
        id="tools"
        later
        onDrawn={onDrawn}
        title="Tool calls and failures"
        summary={`Calls of the ${data.tools.length} most used tools, ${data.tools.reduce((n, t) => n + t.failures, 0)} of them failed.`}
        option={options.tools}
        empty={data.tools.length ? null : 'No tool calls in these sessions.'}
        table={() => ({
          columns: ['Tool', 'Calls', 'Failed'],
          rows: data.tools.map((t) => ({ cells: [t.name, t.calls.toLocaleString(), t.failures.toLocaleString()] })),
        })}
      />
      <EChart
        id="lengths"
        later
        onDrawn={onDrawn}
        title="Session length"
        summary={`Sessions by length, from first to last activity (${sumSessions(data.lengths)} sessions).`}
        option={options.lengths}
        empty={sumSessions(data.lengths) ? null : 'No session here has a start and an end.'}
        table={() => ({ columns: ['Length', 'Sessions'], rows: data.lengths.map((r) => ({ cells: [r.bucket, r.sessions] })) })}
      />
      <EChart
        id="turns"
        later
        onDrawn={onDrawn}
        title="Turns per session"
        summary={`Sessions by the number of prompts typed (${sumSessions(data.turns)} sessions).`}
        option={options.turns}
        empty={sumSessions(data.turns) ? null : 'No sessions here.'}
        table={() => ({ columns: ['Turns', 'Sessions'], rows: data.turns.map((r) => ({ cells: [r.bucket, r.sessions] })) })}
      />
      <EChart
        id="cache"
        later
        onDrawn={onDrawn}
        title="Cache efficiency"
        summary={`Share of input tokens read from the prompt cache per day; ${percent(data.totals.cacheHitRate)} over the whole range.`}
        option={options.cache}
        empty={data.cache.length ? null : 'No input tokens here.'}
        table={() => ({
          columns: ['Day', 'Read from cache', 'Cache reads', 'Input', 'Cache writes'],
          rows: data.cache.map((c) => ({
            cells: [c.day, percent(c.hitRate), c.cacheRead.toLocaleString(), c.input.toLocaleString(), c.cacheWrite.toLocaleString()],
            pick: () => pickDay(c.day),
          })),
        })}
      />
    </div>
  );
}

/** How many charts the dashboard draws. */
const CHARTS = 9;

function busiest(data: Figures): string {
  const top = [...data.heatmap].sort((a, b) => b.calls - a.calls)[0];
  return top ? `${top.day} at ${String(top.hour).padStart(2, '0')}:00 (${top.calls} calls)` : 'none';
}

export default function UsageDashboard() {
  const usage = useAppStore((s) => s.usage);
  const breakdown = useAppStore((s) => s.usageBreakdown);
  const setBreakdown = useAppStore((s) => s.setUsageBreakdown);
  const data = usage?.data ?? null;
  // After the first charts' own effects have drawn them (children's effects run first): the first-paint bench's mark.
  useEffect(() => {
    if (data) markFirstPaint(DASHBOARD_PAINTED);
  }, [data]);
  return (
    <section className="usage-dashboard" data-testid="usage-dashboard" aria-busy={usage?.loading ?? true} aria-labelledby="usage-title">
      <header className="usage-head">
        <h1 id="usage-title">Usage</h1>
        <p className="muted" data-testid="usage-scope">
          {usage?.query ? `Sessions matching “${usage.query}”` : 'All sessions'}
          {data?.from ? ` · ${data.from} to ${data.to} (${data.timezone})` : ''}
        </p>
        <span className="spacer" />
        <label className="usage-breakdown">
          Stack days by{' '}
          <select value={breakdown} onChange={(e) => setBreakdown(e.target.value as DashboardBreakdown)} data-testid="usage-breakdown">
            {BREAKDOWNS.map((b) => (
              <option key={b.id} value={b.id}>
                {b.label}
              </option>
            ))}
          </select>
        </label>
      </header>
      {usage?.error && (
        <p className="error-banner" role="alert">
          Could not add up the usage: {usage.error}
        </p>
      )}
      {data?.problems.map((p) => (
        <p key={p} className="muted" role="status">
          {p}
        </p>
      ))}
      {!data && !usage?.error && <p className="muted">Adding up the usage…</p>}
      {data && (
        <>
          <Totals data={data} />
          <BlockCard block={data.block} limits={data.limits} />
          <Charts data={data} />
        </>
      )}
    </section>
  );
}
