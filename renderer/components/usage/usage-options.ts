// The dashboard's charts as ECharts options (titles live in the card; axes carry names and units), built from its figures and the theme.
import type { UsageDashboard } from '../../../shared/usage-api.ts';
import { CHART_FONT_PX, type ChartTheme } from './chart-theme.ts';
import type { EChartsCoreOption } from './echarts-setup.ts';

/** 1234 -> 1.2k, 2_500_000 -> 2.5M; past a quadrillion (a damaged file's 1e308) the exponent form, 1.8e+308. */
export function compact(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e15) return n.toExponential(1);
  if (abs >= 1e9) return `${(n / 1e9).toFixed(abs >= 1e10 ? 0 : 1)}B`;
  if (abs >= 1e6) return `${(n / 1e6).toFixed(abs >= 1e7 ? 0 : 1)}M`;
  if (abs >= 1e3) return `${(n / 1e3).toFixed(abs >= 1e4 ? 0 : 1)}k`;
  return String(Math.round(n));
}

export const usd = (n: number) => `$${n.toFixed(n !== 0 && Math.abs(n) < 1 ? 4 : 2)}`;
export const percent = (n: number | null) => (n === null ? '–' : `${(n * 100).toFixed(1)}%`);

/** What every chart shares: colours, text, the grid's margins, and tooltips drawn inside the chart (no HTML, nothing the CSP refuses). */
function base(theme: ChartTheme): EChartsCoreOption {
  return {
    backgroundColor: theme.background,
    color: theme.palette,
    animation: false,
    textStyle: { color: theme.text, fontFamily: 'system-ui, sans-serif', fontSize: theme.fontSize },
    grid: { left: 56, right: 16, top: 16, bottom: 44, containLabel: true },
    tooltip: {
      renderMode: 'richText',
      confine: true,
      backgroundColor: theme.panel,
      borderColor: theme.border,
      textStyle: { color: theme.text, fontSize: theme.fontSize },
    },
  };
}

/** An axis's labels: muted text at the theme's size (`scale` for denser labels, such as the heatmap's days). */
const label = (theme: ChartTheme, extra: Record<string, unknown> = {}, scale = 1) => ({
  color: theme.muted,
  fontSize: Math.round(theme.fontSize * scale * 10) / 10,
  ...extra,
});

/** An axis named in the middle, its gap to the labels grown with the text. */
function axis(theme: ChartTheme, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { nameGap = 36, axisLabel, ...rest } = extra as { nameGap?: number; axisLabel?: Record<string, unknown> };
  return {
    name,
    nameLocation: 'middle',
    nameTextStyle: { color: theme.muted, fontSize: theme.fontSize },
    axisLine: { lineStyle: { color: theme.border } },
    splitLine: { lineStyle: { color: theme.border, opacity: 0.6 } },
    ...rest,
    nameGap: Math.round(nameGap * (theme.fontSize / CHART_FONT_PX)),
    axisLabel: label(theme, axisLabel),
  };
}

/** A dollar axis's tick label: the tick as ECharts gives it, without binary noise (0.30000000000000004). */
const usdTick = (v: number) => `$${Number(v.toPrecision(12))}`;

/** ECharts' step between the ticks of a value axis from 0 to `max` (about five intervals, a "nice" number: 1, 2, 3, 5 x 10^n). */
function niceStep(max: number): number {
  const raw = max / 5;
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const exp = Math.floor(Math.log10(raw));
  const f = raw / 10 ** exp;
  return (f < 1.5 ? 1 : f < 2.5 ? 2 : f < 4 ? 3 : f < 7 ? 5 : 10) * 10 ** exp;
}

/**
 * The gap from a vertical axis to its name (at the default text size; axis() scales it), past its widest tick label:
 * a session's cost of a third of a cent has ticks such as "$0.0025", and its rotated name ("Cost (US$, cumulative)")
 * was drawn over their last digits at the fixed gap. About 0.62 em a character, at least `least`.
 */
export function dollarAxisGap(max: number, least: number): number {
  const step = niceStep(max);
  let widest = usdTick(0).length;
  for (let i = 1; i <= 12 && (i - 1) * step <= max; i++) widest = Math.max(widest, usdTick(i * step).length);
  return Math.max(least, Math.round(widest * CHART_FONT_PX * 0.62 + 14));
}

const legend = (theme: ChartTheme) => ({
  type: 'scroll',
  bottom: 0,
  textStyle: { color: theme.text, fontSize: theme.fontSize },
  pageTextStyle: { color: theme.muted, fontSize: theme.fontSize },
});

/**
 * From this many days on, each group's bars are drawn as one shape (ECharts' large mode) instead of one shape per bar:
 * a year stacked by nine models is 3,300 SVG elements otherwise, most of the dashboard's first paint. The bars look the
 * same (each under 2 px wide by then), a click still finds its day; only the hover's highlight of one group is lost.
 */
export const LARGE_BARS_FROM_DAYS = 90;

/** Tokens (or dollars) per day, one stacked series per group. */
export function stackedDaysOption(data: UsageDashboard, theme: ChartTheme, metric: 'tokens' | 'cost'): EChartsCoreOption {
  const days = [...new Set(data.days.map((d) => d.day))];
  const at = new Map(data.days.map((d) => [`${d.day}\n${d.group}`, d]));
  const value = (day: string, group: string) => {
    const cell = at.get(`${day}\n${group}`);
    return cell ? (metric === 'tokens' ? cell.totalTokens : cell.costUsd) : 0;
  };
  const format = metric === 'tokens' ? compact : usd;
  return {
    ...base(theme),
    // Room on the right for half of the last day's label, centred on the last bar (ECharts' containLabel let it be cut off).
    grid: { left: 56, right: 44, top: 16, bottom: 64, containLabel: true },
    legend: legend(theme),
    tooltip: { ...(base(theme).tooltip as object), trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => format(Number(v)) },
    xAxis: axis(theme, `Day (${data.timezone})`, { type: 'category', data: days, nameGap: 28 }),
    yAxis: axis(theme, metric === 'tokens' ? 'Tokens' : 'Cost (US$)', {
      type: 'value',
      nameGap: metric === 'tokens' ? 48 : dollarAxisGap(Math.max(0, ...days.map((d) => data.groups.reduce((sum, g) => sum + value(d, g), 0))), 48),
      axisLabel: { formatter: (v: number) => (metric === 'tokens' ? compact(v) : usdTick(v)) },
    }),
    series: data.groups.map((group) => ({
      name: group,
      type: 'bar',
      stack: 'all',
      emphasis: { focus: 'series' },
      large: true,
      largeThreshold: LARGE_BARS_FROM_DAYS,
      data: days.map((d) => value(d, group)),
    })),
  };
}

/** Calls per hour of each recent day. */
export function heatmapOption(data: UsageDashboard, theme: ChartTheme): EChartsCoreOption {
  const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));
  const dayIndex = new Map(data.heatmapDays.map((d, i) => [d, i]));
  const max = Math.max(1, ...data.heatmap.map((c) => c.calls));
  return {
    ...base(theme),
    grid: { left: 88, right: 16, top: 8, bottom: 72, containLabel: false },
    tooltip: {
      ...(base(theme).tooltip as object),
      formatter: (p: { value: [number, number, number] }) => `${data.heatmapDays[p.value[1]] ?? ''} ${hours[p.value[0]] ?? ''}:00\n${p.value[2]} calls`,
    },
    xAxis: axis(theme, `Hour of the day (${data.timezone})`, { type: 'category', data: hours, nameGap: 26, splitArea: { show: false } }),
    yAxis: { ...axis(theme, '', { type: 'category', data: data.heatmapDays }), axisLabel: label(theme, {}, 10 / CHART_FONT_PX) },
    visualMap: {
      min: 0,
      max,
      calculable: false,
      orient: 'horizontal',
      left: 'center',
      bottom: 0,
      itemHeight: 120,
      text: [`${max} calls`, '0'],
      textStyle: { color: theme.muted, fontSize: theme.fontSize },
      inRange: { color: [theme.panel, theme.accent] },
    },
    series: [
      {
        type: 'heatmap',
        data: data.heatmap.map((c) => [Number(c.hour), dayIndex.get(c.day) ?? 0, c.calls]),
        emphasis: { itemStyle: { borderColor: theme.text, borderWidth: 1 } },
      },
    ],
  };
}

/** A horizontal bar per item, largest on top. */
export function rankedOption(
  theme: ChartTheme,
  names: string[],
  values: number[],
  axisName: string,
  format: (n: number) => string,
  colour = 0,
): EChartsCoreOption {
  return {
    ...base(theme),
    grid: { left: 8, right: 24, top: 8, bottom: 40, containLabel: true },
    tooltip: { ...(base(theme).tooltip as object), trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => format(Number(v)) },
    xAxis: axis(theme, axisName, { type: 'value', nameGap: 26, axisLabel: { formatter: (v: number) => format(v) } }),
    yAxis: axis(theme, '', {
      type: 'category',
      data: [...names].reverse(),
      axisLabel: { color: theme.text, width: Math.round(160 * (theme.fontSize / CHART_FONT_PX)), overflow: 'truncate' },
    }),
    series: [{ type: 'bar', name: axisName, data: [...values].reverse(), itemStyle: { color: theme.palette[colour] } }],
  };
}

/** Calls per tool, the failed ones stacked on the rest. */
export function toolsOption(data: UsageDashboard, theme: ChartTheme): EChartsCoreOption {
  const names = data.tools.map((t) => t.name).reverse();
  return {
    ...base(theme),
    grid: { left: 8, right: 24, top: 8, bottom: 64, containLabel: true },
    legend: legend(theme),
    tooltip: { ...(base(theme).tooltip as object), trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: axis(theme, 'Calls', { type: 'value', nameGap: 26 }),
    yAxis: axis(theme, '', {
      type: 'category',
      data: names,
      axisLabel: { color: theme.text, width: Math.round(140 * (theme.fontSize / CHART_FONT_PX)), overflow: 'truncate' },
    }),
    series: [
      {
        name: 'Succeeded or unknown',
        type: 'bar',
        stack: 'calls',
        data: data.tools.map((t) => t.calls - t.failures).reverse(),
        itemStyle: { color: theme.palette[2] },
      },
      { name: 'Failed', type: 'bar', stack: 'calls', data: data.tools.map((t) => t.failures).reverse(), itemStyle: { color: theme.palette[5] } },
    ],
  };
}

/** Sessions per bucket (lengths or turns). */
export function distributionOption(theme: ChartTheme, rows: Array<{ bucket: string; sessions: number }>, axisName: string, colour: number): EChartsCoreOption {
  return {
    ...base(theme),
    tooltip: { ...(base(theme).tooltip as object), trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => `${v} sessions` },
    xAxis: axis(theme, axisName, { type: 'category', data: rows.map((r) => r.bucket), nameGap: 28 }),
    yAxis: axis(theme, 'Sessions', { type: 'value', nameGap: 40, minInterval: 1 }),
    series: [{ type: 'bar', name: 'Sessions', data: rows.map((r) => r.sessions), itemStyle: { color: theme.palette[colour] } }],
  };
}

/** The share of the input side read from the cache, per day. */
export function cacheOption(data: UsageDashboard, theme: ChartTheme): EChartsCoreOption {
  return {
    ...base(theme),
    tooltip: {
      ...(base(theme).tooltip as object),
      trigger: 'axis',
      valueFormatter: (v: unknown) => (v === null || v === undefined ? '–' : `${Number(v).toFixed(1)}%`),
    },
    xAxis: axis(theme, `Day (${data.timezone})`, { type: 'category', data: data.cache.map((c) => c.day), nameGap: 28 }),
    yAxis: axis(theme, 'Read from cache (%)', { type: 'value', min: 0, max: 100, nameGap: 40 }),
    series: [
      {
        type: 'line',
        name: 'Cache hit rate',
        showSymbol: true,
        connectNulls: false,
        data: data.cache.map((c) => (c.hitRate === null ? null : Math.round(c.hitRate * 1000) / 10)),
        itemStyle: { color: theme.palette[4] },
        areaStyle: { opacity: 0.15 },
      },
    ],
  };
}

/** A session's cumulative tokens and cost after each turn, on two axes. */
export function curveOption(theme: ChartTheme, turns: Array<{ turn: number; tokens: number; costUsd: number }>): EChartsCoreOption {
  const costGap = dollarAxisGap(Math.max(0, ...turns.map((t) => t.costUsd)), 52);
  return {
    ...base(theme),
    // containLabel keeps the labels inside; the right margin holds the cost axis's name beyond them.
    grid: { left: 56, right: 64, top: 16, bottom: 64, containLabel: true },
    legend: legend(theme),
    tooltip: { ...(base(theme).tooltip as object), trigger: 'axis' },
    xAxis: axis(theme, 'Turn', { type: 'category', data: turns.map((t) => String(t.turn)), nameGap: 28 }),
    yAxis: [
      axis(theme, 'Tokens (cumulative)', { type: 'value', nameGap: 48, axisLabel: { formatter: (v: number) => compact(v) } }),
      axis(theme, 'Cost (US$, cumulative)', {
        type: 'value',
        nameGap: costGap,
        splitLine: { show: false },
        axisLabel: { formatter: usdTick },
      }),
    ],
    series: [
      {
        name: 'Tokens',
        type: 'line',
        data: turns.map((t) => t.tokens),
        itemStyle: { color: theme.palette[0] },
        tooltip: { valueFormatter: (v: unknown) => compact(Number(v)) },
      },
      {
        name: 'Cost',
        type: 'line',
        yAxisIndex: 1,
        data: turns.map((t) => Math.round(t.costUsd * 10_000) / 10_000),
        itemStyle: { color: theme.palette[1] },
        lineStyle: { type: 'dashed' },
        tooltip: { valueFormatter: (v: unknown) => usd(Number(v)) },
      },
    ],
  };
}
