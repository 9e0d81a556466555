// The charts' text follows the app's text size (Settings → Text size): every label, axis name, legend and tooltip of every chart.
import { describe, expect, it } from 'vitest';
import type { UsageDashboard } from '../../../shared/usage-api.ts';
import { cacheOption, curveOption, distributionOption, heatmapOption, rankedOption, stackedDaysOption, toolsOption, compact } from './usage-options.ts';
import type { ChartTheme } from './chart-theme.ts';
import { testChartTheme } from './test-chart-theme.ts';

const theme = (fontSize: number) => testChartTheme(fontSize);

const data: UsageDashboard = {
  timezone: 'UTC',
  from: '2026-03-01',
  to: '2026-03-02',
  totals: { input: 10, output: 5, cacheRead: 20, cacheWrite: 1, reasoning: 0, totalTokens: 36, costUsd: 0.5, unpricedCalls: 0, sessions: 1, cacheHitRate: 0.6 },
  breakdown: 'model',
  groups: ['claude-opus-4-7'],
  days: [{ day: '2026-03-01', group: 'claude-opus-4-7', totalTokens: 36, costUsd: 0.5, unpricedCalls: 0 }],
  heatmapDays: ['2026-03-01'],
  heatmap: [{ day: '2026-03-01', hour: 9, calls: 2, totalTokens: 36 }],
  projects: [{ name: 'app', totalTokens: 36, costUsd: 0.5, sessions: 1 }],
  models: [{ name: 'claude-opus-4-7', totalTokens: 36, costUsd: 0.5, calls: 2, unpricedCalls: 0 }],
  tools: [{ name: 'Bash', calls: 2, failures: 1 }],
  lengths: [{ bucket: '< 1 min', sessions: 1 }],
  turns: [{ bucket: '1', sessions: 1 }],
  cache: [{ day: '2026-03-01', cacheRead: 20, input: 10, cacheWrite: 1, hitRate: 0.6 }],
  block: null,
  limits: [],
  problems: [],
  tookMs: 1,
};

/** Every font size an option sets, wherever it is (axes may be one object or a list). */
function fontSizes(value: unknown, out: number[] = []): number[] {
  if (Array.isArray(value)) for (const v of value) fontSizes(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'fontSize' && typeof v === 'number') out.push(v);
      else fontSizes(v, out);
    }
  }
  return out;
}

const all = (t: ChartTheme) => ({
  tokens: stackedDaysOption(data, t, 'tokens'),
  cost: stackedDaysOption(data, t, 'cost'),
  heatmap: heatmapOption(data, t),
  ranked: rankedOption(t, ['app'], [36], 'Tokens', compact),
  tools: toolsOption(data, t),
  lengths: distributionOption(t, data.lengths, 'Session length', 3),
  cache: cacheOption(data, t),
  curve: curveOption(t, [{ turn: 1, tokens: 36, costUsd: 0.5 }]),
});

describe('chart text size', () => {
  it('is the theme’s in every chart: the global text, axis labels and names, legends and tooltips', () => {
    for (const [name, option] of Object.entries(all(theme(16)))) {
      const o = option as Record<string, Record<string, unknown>>;
      expect(o.textStyle?.fontSize, name).toBe(16);
      expect((o.tooltip?.textStyle as { fontSize: number }).fontSize, name).toBe(16);
      for (const axis of [o.xAxis, o.yAxis].flat() as Array<Record<string, { fontSize: number }>>) {
        expect(axis.nameTextStyle?.fontSize, `${name} axis name`).toBe(16);
        // The heatmap's day labels are a size smaller, scaled the same way.
        expect(axis.axisLabel?.fontSize, `${name} axis labels`).toBe(name === 'heatmap' && axis === o.yAxis ? 13.3 : 16);
      }
      if (o.legend) expect((o.legend.textStyle as { fontSize: number }).fontSize, `${name} legend`).toBe(16);
    }
  });

  it('grows with the setting, and so do the gaps that keep axis names clear of their labels', () => {
    const normal = all(theme(12));
    const larger = all(theme(14.8));
    for (const name of Object.keys(normal) as Array<keyof typeof normal>) {
      expect(Math.min(...fontSizes(larger[name]))).toBeGreaterThan(Math.max(...fontSizes(normal[name])) - 2.1);
      expect(Math.max(...fontSizes(larger[name]))).toBeGreaterThan(Math.max(...fontSizes(normal[name])));
    }
    const gap = (o: unknown) => (o as { xAxis: { nameGap: number } }).xAxis.nameGap;
    expect(gap(larger.tokens)).toBeGreaterThan(gap(normal.tokens));
  });
});

describe('dollar axes', () => {
  type ValueAxis = { nameGap: number; axisLabel: { formatter: (v: number) => string } };
  const costAxisOfCurve = (costUsd: number) => (curveOption(theme(12), [{ turn: 1, tokens: 290, costUsd }]) as { yAxis: ValueAxis[] }).yAxis[1] as ValueAxis;
  const costAxisOfDays = (costUsd: number) =>
    (stackedDaysOption({ ...data, days: [{ ...(data.days[0] as UsageDashboard['days'][number]), costUsd }] }, theme(12), 'cost') as { yAxis: ValueAxis }).yAxis;
  /** The gap a label of `chars` characters needs at 12 px: about 0.55 em a character, and room to breathe. */
  const clears = (axis: ValueAxis, label: string) => expect(axis.nameGap).toBeGreaterThanOrEqual(label.length * 12 * 0.55 + 8);

  it('keep their name clear of the widest tick label, a third of a cent ("$0.0025") as well as a few dollars', () => {
    for (const axis of [costAxisOfCurve(0.0027), costAxisOfDays(0.0027)]) {
      expect(axis.axisLabel.formatter(0.0025)).toBe('$0.0025');
      clears(axis, '$0.0025');
    }
    expect(costAxisOfCurve(0.0027).nameGap).toBeGreaterThan(52);
    // Whole dollars keep the gaps they had.
    expect(costAxisOfCurve(12).nameGap).toBe(52);
    expect(costAxisOfDays(60).nameGap).toBe(48);
  });

  it('show a tick without binary noise', () => {
    expect(costAxisOfCurve(1).axisLabel.formatter(0.1 + 0.2)).toBe('$0.3');
    expect(costAxisOfDays(1).axisLabel.formatter(0.30000000000000004)).toBe('$0.3');
  });
});

describe('compact counts', () => {
  it('shorten thousands, millions and billions, and print a damaged count past a quadrillion in the exponent form', () => {
    expect(compact(1234)).toBe('1.2k');
    expect(compact(2_500_000)).toBe('2.5M');
    expect(compact(42_000_000_000)).toBe('42B');
    expect(compact(Number.MAX_VALUE)).toBe('1.8e+308');
  });
});
