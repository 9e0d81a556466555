// Display helpers shared by the components: format labels, timestamps, numbers and JSON.
import type { SourceFormat, TokenUsage } from '../shared/session.ts';

const FORMAT_LABELS: Record<SourceFormat, string> = {
  vizier: 'Vizier',
  'jido-code': 'JidoCode',
  projecthub: 'ProjectHub',
  'ai-agent': 'AI Agent',
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini',
  vault: 'Vault',
};

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

export function formatCount(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  return String(n);
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
