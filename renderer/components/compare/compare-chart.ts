// Geometry of the small cumulative-tokens chart: one polyline per session over its own turns, on shared axes.
export interface ChartLine {
  points: string;
  last: number;
}

export interface ChartGeometry {
  a: ChartLine | null;
  b: ChartLine | null;
  max: number;
  turns: number;
}

export function chartGeometry(a: readonly number[] | null, b: readonly number[] | null, width: number, height: number, pad = 4): ChartGeometry {
  const turns = Math.max(a?.length ?? 0, b?.length ?? 0);
  const max = Math.max(0, ...(a ?? []), ...(b ?? []));
  const line = (values: readonly number[] | null): ChartLine | null => {
    if (!values || values.length === 0 || max === 0) return null;
    // Starts at zero before the first turn, so a one-turn session is still a line.
    const xs = [0, ...values];
    const points = xs
      .map((v, i) => {
        const x = pad + (i / Math.max(1, turns)) * (width - 2 * pad);
        const y = height - pad - (v / max) * (height - 2 * pad);
        return `${x.toFixed(1)},${y.toFixed(1)}`;
      })
      .join(' ');
    return { points, last: values[values.length - 1] as number };
  };
  return { a: line(a), b: line(b), max, turns };
}
