// Saves a chart as SVG (what the SVG renderer drew, or the same option drawn off screen for a chart on canvas) or PNG (that SVG drawn on a canvas at twice the size), as a download.
import { init, type EChartsCoreOption, type EChartsType } from './echarts-setup.ts';

function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from a chart's title: lower case, dashes. */
export function fileNameOf(title: string, ext: 'svg' | 'png'): string {
  const base =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'chart';
  return `${base}.${ext}`;
}

/** The chart as SVG text: a chart drawn on canvas has its option drawn again by the SVG renderer, off screen, at its size. */
export function chartSvg(chart: EChartsType, option: EChartsCoreOption, onCanvas: boolean): string {
  if (!onCanvas) return chart.renderToSVGString();
  const offscreen = init(null, null, { renderer: 'svg', ssr: true, width: chart.getWidth(), height: chart.getHeight() });
  try {
    offscreen.setOption(option);
    return offscreen.renderToSVGString();
  } finally {
    offscreen.dispose();
  }
}

export function saveSvg(svg: string, title: string): void {
  download(new Blob([svg], { type: 'image/svg+xml' }), fileNameOf(title, 'svg'));
}

export async function savePng(chart: EChartsType, svg: string, title: string): Promise<void> {
  const width = chart.getWidth();
  const height = chart.getHeight();
  const image = new Image();
  // A data: URL (the page's CSP allows images from data:), so the canvas stays readable.
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width * 2;
  canvas.height = height * 2;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw the chart to an image.');
  context.scale(2, 2);
  context.drawImage(image, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('The chart could not be turned into a PNG.');
  download(blob, fileNameOf(title, 'png'));
}
