// Saving a chart as SVG: an SVG chart gives what it drew; a chart drawn on canvas (the heatmap) gives its option drawn as SVG, at its size, cell by cell.
import { expect, it } from 'vitest';
import type { UsageDashboard } from '../../../shared/usage-api.ts';
import { chartSvg, fileNameOf } from './chart-export.ts';
import type { EChartsType } from './echarts-setup.ts';
import { heatmapOption } from './usage-options.ts';
import { testChartTheme } from './test-chart-theme.ts';

const theme = testChartTheme(12, ['#0072B2']);
const days = ['2026-03-01', '2026-03-02', '2026-03-03'];
const figures = {
  timezone: 'UTC',
  heatmapDays: days,
  heatmap: days.flatMap((day, d) => [9, 14].map((hour) => ({ day, hour, calls: 1 + d, totalTokens: 10 }))),
} as unknown as UsageDashboard;

/** A chart as the card holds it: only its size and its own SVG matter here. */
const drawn = (svg: string) => ({ getWidth: () => 480, getHeight: () => 300, renderToSVGString: () => svg }) as unknown as EChartsType;

it('gives an SVG chart’s own drawing', () => {
  expect(chartSvg(drawn('<svg>drawn</svg>'), heatmapOption(figures, theme), false)).toBe('<svg>drawn</svg>');
});

it('draws a canvas chart’s option as SVG at the chart’s size, with its cells and the day labels', () => {
  const svg = chartSvg(drawn('unused'), heatmapOption(figures, theme), true);
  expect(svg).toMatch(/^<svg[^>]* width="480" height="300"/);
  for (const day of days) expect(svg).toContain(day);
  // Six cells of two colours at least, filled (the legend's handles and the background are paths too).
  expect([...svg.matchAll(/<path [^>]*fill="(?!none)/g)].length).toBeGreaterThanOrEqual(6);
});

it('names the file after the chart', () => {
  expect(fileNameOf('Activity by day and hour', 'svg')).toBe('activity-by-day-and-hour.svg');
});
