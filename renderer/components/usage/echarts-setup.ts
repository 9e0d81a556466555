// Apache ECharts, only the parts the usage charts draw with (bars, lines, heatmap; SVG renderer, and canvas for the heatmap's many cells): this module is the lazy chunk's core.
// `use` registers chart parts (it is not React's hook).
import { init, use as register, type ECElementEvent, type EChartsCoreOption, type EChartsType } from 'echarts/core';
import { BarChart, HeatmapChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';

register([BarChart, LineChart, HeatmapChart, GridComponent, TooltipComponent, LegendComponent, VisualMapComponent, SVGRenderer, CanvasRenderer]);

export { init };
export type { ECElementEvent, EChartsCoreOption, EChartsType };
