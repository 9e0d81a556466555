// The header diff: model and parameters, effective config with provenance, project, outcome, times, counts, tokens, cost.
import type { ConfigEntry, Cost, Session, TokenUsage } from '../session.ts';
import { countToolCalls, totalTokens } from '../summarize.ts';
import type { DeltaUnit, HeaderRow } from './comparison.ts';
import { formatDelta, formatDuration, formatNumber, formatUsd } from './delta.ts';
import type { NormalTurn } from './normalize.ts';
import { sessionCost, sessionSpan, sessionUsage } from './totals.ts';
import { isoFromMs } from '../iso-time.ts';

type Group = HeaderRow['group'];

function text(group: Group, label: string, a: string | null, b: string | null): HeaderRow {
  return { group, label, a, b, same: a === b, delta: null, unit: null, av: null, bv: null };
}

function numeric(group: Group, label: string, unit: DeltaUnit, av: number | null, bv: number | null, show: (n: number) => string): HeaderRow {
  const a = av === null ? null : show(av);
  const b = bv === null ? null : show(bv);
  return { group, label, a, b, same: av === bv, delta: formatDelta(unit, av, bv), unit, av, bv };
}

/** Times are printed in UTC here; the UI shows `av`/`bv` in the viewer's own zone. */
export function utc(ms: number): string {
  const iso = isoFromMs(ms);
  return iso === null ? 'no such time' : `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

function show(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const short = (sha: string | null) => (sha ? sha.slice(0, 12) : null);

function configValue(entry: ConfigEntry | undefined): string | null {
  if (!entry) return null;
  return entry.provenance ? `${show(entry.value)} (${entry.provenance})` : show(entry.value);
}

function outcome(s: Session): string | null {
  if (!s.outcome) return null;
  return s.outcome.summary ? `${s.outcome.status} — ${s.outcome.summary}` : s.outcome.status;
}

function systemPrompt(s: Session): string | null {
  const p = s.systemPrompt;
  if (!p) return null;
  if (p.hash) return `${p.path ? `${p.path} ` : ''}#${p.hash.slice(0, 12)}`;
  if (p.text) return p.text.length > 80 ? `${p.text.slice(0, 79)}…` : p.text;
  return p.path;
}

/** Config keys in a stable order: A's order first, then keys only B has. */
function configRows(a: Session, b: Session): HeaderRow[] {
  const keys = [...new Set([...a.config.map((c) => c.key), ...b.config.map((c) => c.key)])];
  return keys.map((key) => text('config', key, configValue(a.config.find((c) => c.key === key)), configValue(b.config.find((c) => c.key === key))));
}

function parameterRows(a: Session, b: Session): HeaderRow[] {
  const pa = a.model?.parameters ?? {};
  const pb = b.model?.parameters ?? {};
  const keys = [...new Set([...Object.keys(pa), ...Object.keys(pb)])];
  return keys.map((key) => text('model', key, key in pa ? show(pa[key]) : null, key in pb ? show(pb[key]) : null));
}

const TOKEN_KINDS: Array<[keyof TokenUsage, string]> = [
  ['input', 'Input tokens'],
  ['output', 'Output tokens'],
  ['cacheRead', 'Cache read tokens'],
  ['cacheWrite', 'Cache write tokens'],
  ['reasoning', 'Reasoning tokens'],
];

function toolErrors(s: Session): number {
  let n = 0;
  for (const m of s.messages) for (const p of m.parts) if (p.type === 'tool_result' && p.isError === true) n++;
  return n;
}

/** A price from a pricing table says so, on either side. */
function costRow(ca: Cost | null, cb: Cost | null): HeaderRow {
  const shown = (c: Cost | null) => (c ? `${formatUsd(c.usd)}${c.estimated ? ' (estimated)' : ''}` : null);
  return { ...numeric('cost', 'Cost', 'usd', ca?.usd ?? null, cb?.usd ?? null, formatUsd), a: shown(ca), b: shown(cb) };
}

export interface HeaderInput {
  session: Session;
  turns: readonly NormalTurn[];
  files: number;
}

export function headerRows(A: HeaderInput, B: HeaderInput): HeaderRow[] {
  const a = A.session;
  const b = B.session;
  const model = (s: Session) => (s.model ? [s.model.provider, s.model.name].filter(Boolean).join(' / ') || null : null);
  const tool = (s: Session) => [s.format, s.toolVersion].filter(Boolean).join(' ');
  const spanA = sessionSpan(a);
  const spanB = sessionSpan(b);
  const usageA = sessionUsage(a);
  const usageB = sessionUsage(b);
  const count = (n: number) => formatNumber(n);
  const tokens = (n: number) => formatNumber(n);
  const prompts = (t: readonly NormalTurn[]) => t.filter((x) => x.promptKey !== null).length;
  return [
    text('session', 'Title', a.title, b.title),
    text('session', 'Tool', tool(a), tool(b)),
    text('session', 'Project', a.project.path ?? a.project.name, b.project.path ?? b.project.name),
    text('session', 'Branch', a.project.branch, b.project.branch),
    text('session', 'Head commit', short(a.project.headCommit), short(b.project.headCommit)),
    text('session', 'Status', a.status, b.status),
    text('session', 'Outcome', outcome(a), outcome(b)),
    text('session', 'Outcome commit', short(a.outcome?.commitSha ?? null), short(b.outcome?.commitSha ?? null)),
    text('model', 'Model', model(a), model(b)),
    ...parameterRows(a, b),
    text('model', 'System prompt', systemPrompt(a), systemPrompt(b)),
    ...configRows(a, b),
    numeric('time', 'Started', 'time', spanA.start, spanB.start, utc),
    numeric('time', 'Ended', 'time', spanA.end, spanB.end, utc),
    numeric('time', 'Duration', 'ms', spanA.durationMs, spanB.durationMs, formatDuration),
    numeric('counts', 'Messages', 'count', a.messages.length, b.messages.length, count),
    numeric('counts', 'Prompts', 'count', prompts(A.turns), prompts(B.turns), count),
    numeric('counts', 'Tool calls', 'count', countToolCalls(a), countToolCalls(b), count),
    numeric('counts', 'Tool errors', 'count', toolErrors(a), toolErrors(b), count),
    numeric('counts', 'Operations', 'count', a.operations.length, b.operations.length, count),
    numeric('counts', 'Files touched', 'count', A.files, B.files, count),
    numeric('counts', 'Sub-agents', 'count', a.childKeys.length, b.childKeys.length, count),
    ...TOKEN_KINDS.map(([kind, label]) => numeric('tokens', label, 'tokens', usageA?.[kind] ?? null, usageB?.[kind] ?? null, tokens)),
    numeric('tokens', 'Total tokens', 'tokens', totalTokens(usageA), totalTokens(usageB), tokens),
    costRow(sessionCost(a), sessionCost(b)),
  ];
}
