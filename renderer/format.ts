// Display helpers shared by the components: format labels, timestamps, numbers and JSON.
import type { SourceFormat, TokenUsage } from '../shared/session.ts';
import { FORMAT_LABELS } from '../shared/source-formats.ts';

export function formatLabel(format: SourceFormat): string {
  return FORMAT_LABELS[format] ?? format;
}

/** Local date and time, or the raw string when it does not parse (formats write odd things). */
export function formatTimestamp(iso: string | null): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const d = new Date(t);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A count as the rest of the app writes one: digits grouped below 10,000 ("3,420", as the list's and the usage tab's), then k and M. */
export function formatCount(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  return n.toLocaleString();
}

/** A count and its noun, singular for one: "1 tool call", "3,420 messages". */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;
}

export function formatUsage(usage: TokenUsage): string {
  const parts = [`in ${formatCount(usage.input)}`, `out ${formatCount(usage.output)}`];
  if (usage.cacheRead) parts.push(`cache read ${formatCount(usage.cacheRead)}`);
  if (usage.cacheWrite) parts.push(`cache write ${formatCount(usage.cacheWrite)}`);
  if (usage.reasoning) parts.push(`reasoning ${formatCount(usage.reasoning)}`);
  return parts.join(' · ');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** Strings stay as they are; anything else is pretty JSON. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export function shortSha(sha: string | null): string {
  return sha ? sha.slice(0, 12) : '—';
}

type CostLike = { usd: number; estimated: boolean; unpricedMessages?: number };

/**
 * "$0.12", "≈ $0.12 (estimated)" for a price from a table, "≥ $0.0018 (estimated), 3 messages unpriced" for a total
 * that leaves out calls with no known price, "—" when unknown.
 */
export function formatCost(cost: CostLike | null | undefined): string {
  if (!cost || !Number.isFinite(cost.usd)) return '—';
  const abs = Math.abs(cost.usd);
  // Sub-cent amounts keep four decimals so a cheap call does not read as free.
  const digits = abs > 0 && abs < 0.01 ? 4 : 2;
  const amount = `$${cost.usd.toFixed(digits)}`;
  const unpriced = cost.unpricedMessages ?? 0;
  if (unpriced > 0) return `≥ ${amount}${cost.estimated ? ' (estimated)' : ''}, ${unpriced} message${unpriced === 1 ? '' : 's'} unpriced`;
  return cost.estimated ? `≈ ${amount} (estimated)` : amount;
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const totalMinutes = Math.floor(s / 60);
  if (totalMinutes < 60) return `${totalMinutes}m ${String(Math.round(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(totalMinutes / 60)}h ${String(totalMinutes % 60).padStart(2, '0')}m`;
}

/** "850 chars", "1.2k chars", "34k chars". */
export function formatChars(n: number): string {
  if (n < 1000) return `${n} char${n === 1 ? '' : 's'}`;
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k chars`;
  return `${formatCount(n)} chars`;
}

export function addUsage(a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null {
  if (!a) return b;
  if (!b) return a;
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    reasoning: a.reasoning + b.reasoning,
  };
}

/** Sum of known costs; estimated as soon as one part is, partial as soon as one part is; null when none is known. */
export function addCost(a: CostLike | null, b: CostLike | null): CostLike | null {
  if (!a) return b;
  if (!b) return a;
  const sum: CostLike = { usd: a.usd + b.usd, estimated: a.estimated || b.estimated };
  const unpriced = (a.unpricedMessages ?? 0) + (b.unpricedMessages ?? 0);
  if (unpriced > 0) sum.unpricedMessages = unpriced;
  return sum;
}
