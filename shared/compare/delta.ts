// How two numbers differ, in words people read at a glance: "+1,240 tokens, +12%", "+$0.12, +40%", "2.1× slower".
import type { DeltaUnit } from './comparison.ts';

/** Digits grouped by commas regardless of the machine's locale, so the CLI and the UI print the same. */
export function formatNumber(n: number): string {
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  const digits = Number.isInteger(abs) ? String(abs) : abs >= 100 ? String(Math.round(abs)) : abs.toFixed(abs >= 10 ? 1 : 2);
  const [whole, fraction] = digits.split('.');
  const grouped = (whole ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** Amounts under a dollar keep four decimals so cheap runs still differ visibly (and do not read as free). */
export function formatUsd(usd: number): string {
  const abs = Math.abs(usd);
  const digits = abs > 0 && abs < 1 ? 4 : 2;
  return `${usd < 0 ? '-' : ''}$${abs.toFixed(digits)}`;
}

export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1000) return `${Math.round(abs)} ms`;
  const s = abs / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes}m ${String(Math.round(s % 60)).padStart(2, '0')}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** "+12%", "-3%", "+0.4%"; null when the base is zero (no meaningful percentage). */
export function formatPercent(a: number, b: number): string | null {
  if (a === 0) return null;
  const p = ((b - a) / Math.abs(a)) * 100;
  const shown = Math.abs(p) < 1 ? p.toFixed(1) : String(Math.round(p));
  return `${p >= 0 ? '+' : ''}${shown}%`;
}

const plus = (n: number) => (n > 0 ? '+' : n < 0 ? '-' : '±');

/** Which way and how many times; small differences read better as a percentage than as "1.0×". */
function speed(a: number, b: number): string | null {
  if (a <= 0 || b <= 0) return null;
  const ratio = b >= a ? b / a : a / b;
  const word = b >= a ? 'slower' : 'faster';
  if (ratio >= 1.1) return `${ratio.toFixed(1)}× ${word}`;
  return `${Math.round((ratio - 1) * 100)}% ${word}`;
}

/** The difference from a to b, or null when either is unknown; "same" when they are equal. */
export function formatDelta(unit: DeltaUnit, a: number | null, b: number | null): string | null {
  if (a === null || b === null || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  if (a === b) return 'same';
  const d = b - a;
  const pct = formatPercent(a, b);
  switch (unit) {
    case 'count':
      return [`${plus(d)}${formatNumber(Math.abs(d))}`, pct].filter(Boolean).join(', ');
    case 'tokens':
      return [`${plus(d)}${formatNumber(Math.abs(d))} tokens`, pct].filter(Boolean).join(', ');
    case 'usd':
      return [`${plus(d)}${formatUsd(Math.abs(d))}`, pct].filter(Boolean).join(', ');
    case 'ms':
      return [`${plus(d)}${formatDuration(d)}`, speed(a, b)].filter(Boolean).join(', ');
    case 'time':
      return `${formatDuration(d)} ${d > 0 ? 'later' : 'earlier'}`;
  }
}
