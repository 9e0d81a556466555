// A long range of days stacked by many groups draws as one shape per group (what kept the dashboard's first paint slow), a short one bar by bar.
import { expect, it } from 'vitest';
import type { UsageDashboard } from '../../../shared/usage-api.ts';
import { init } from './echarts-setup.ts';
import { LARGE_BARS_FROM_DAYS, stackedDaysOption } from './usage-options.ts';
import { testChartTheme } from './test-chart-theme.ts';

const theme = testChartTheme();
const GROUPS = ['opus', 'sonnet', 'haiku', 'gpt-5', 'gemini', 'o3', 'kimi', 'qwen', 'grok'];

/** `days` days from 2025-06-01, every group with tokens on every day. */
function figures(days: number): UsageDashboard {
  const dayNames = Array.from({ length: days }, (_, i) => new Date(Date.UTC(2025, 5, 1) + i * 86_400_000).toISOString().slice(0, 10));
  return {
    timezone: 'UTC',
    from: dayNames[0] ?? null,
    to: dayNames.at(-1) ?? null,
    totals: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, totalTokens: 0, costUsd: 0, unpricedCalls: 0, sessions: 0, cacheHitRate: null },
    breakdown: 'model',
    groups: GROUPS,
    days: dayNames.flatMap((day, d) =>
      GROUPS.map((group, g) => ({ day, group, totalTokens: 1000 + ((d * 7 + g * 13) % 97) * 100, costUsd: 0.1, unpricedCalls: 0 })),
    ),
    heatmapDays: [],
    heatmap: [],
    projects: [],
    models: [],
    tools: [],
    lengths: [],
    turns: [],
    cache: [],
    block: null,
    limits: [],
    problems: [],
    tookMs: 1,
  } as UsageDashboard;
}

/** The chart drawn as the dashboard's SVG renderer draws it, off screen: how many filled shapes it holds. */
function filledShapes(data: UsageDashboard): number {
  const chart = init(null, null, { renderer: 'svg', ssr: true, width: 480, height: 240 });
  try {
    chart.setOption(stackedDaysOption(data, theme, 'tokens'));
    const svg = chart.renderToSVGString();
    return [...svg.matchAll(/<path [^>]*fill="(?!none)[^"]+"/g)].length;
  } finally {
    chart.dispose();
  }
}

it(`draws a year of days stacked by nine models in a few dozen shapes, not one per bar`, () => {
  const shapes = filledShapes(figures(365));
  expect(shapes).toBeLessThan(100);
});

it(`draws fewer than ${LARGE_BARS_FROM_DAYS} days bar by bar (each bar its own shape, highlighted on hover)`, () => {
  const days = LARGE_BARS_FROM_DAYS - 1;
  expect(filledShapes(figures(days))).toBeGreaterThanOrEqual(days * GROUPS.length);
});
