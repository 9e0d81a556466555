// The chart theme the usage tests draw with: light, the app's palette, a text size of their choosing.
import type { ChartTheme } from './chart-theme.ts';

const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#8F7F00'];

export function testChartTheme(fontSize = 12, palette: string[] = PALETTE): ChartTheme {
  return { dark: false, text: '#111', muted: '#666', border: '#ddd', background: '#fff', panel: '#f6f6f6', accent: '#2563eb', palette, fontSize };
}
