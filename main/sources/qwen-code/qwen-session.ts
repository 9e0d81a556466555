// Assembles the canonical Session from a Qwen Code chat: the active chain's messages, usage and cost, title, project, parent.
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Message, Session } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { addUsage, emptyUsage, lastSegment, primarySourceFile, titleFromText, type DocumentContext, type WarningList } from '../coerce.ts';
import type { QwenChain, QwenRecord } from './qwen-chain.ts';
import type { QwenLayout } from './qwen-paths.ts';
import { convertRecords } from './qwen-records.ts';

export interface QwenContext extends DocumentContext {
  layout: QwenLayout;
  now: number;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function isPrompt(m: Message): boolean {
  const a = (m.annotations ?? {}) as Record<string, unknown>;
  return m.role === 'user' && m.agentId === null && a.injected !== true;
}

function firstPrompt(messages: Message[]): string | null {
  for (const m of messages) {
    if (!isPrompt(m)) continue;
    const a = (m.annotations ?? {}) as Record<string, unknown>;
    const text = typeof a.displayText === 'string' ? a.displayText : m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    const title = titleFromText(text);
    if (title) return title;
  }
  return null;
}

function field(records: readonly QwenRecord[], key: string): string[] {
  return records.flatMap((r) => (typeof r.raw[key] === 'string' && r.raw[key] !== '' ? [r.raw[key] as string] : []));
}

function timeRange(records: readonly QwenRecord[]): [string | null, string | null] {
  const times = records.map((r) => r.raw.timestamp).filter((t): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t)));
  times.sort((a, b) => Date.parse(a) - Date.parse(b));
  const iso = (t: string | undefined) => (t ? new Date(Date.parse(t)).toISOString() : null);
  return [iso(times[0]), iso(times.at(-1))];
}

/** Qwen writes no end marker: live while the file and its last record are recent and the turn is not answered yet. */
function isLive(messages: Message[], lastTs: string | null, ctx: QwenContext): boolean {
  if (ctx.now - ctx.mtimeMs >= ACTIVE_WINDOW_MS) return false;
  if (lastTs !== null && ctx.now - Date.parse(lastTs) >= ACTIVE_WINDOW_MS) return false;
  const last = messages.filter((m) => m.agentId === null && m.role !== 'system').at(-1);
  return !(last?.role === 'assistant' && !last.parts.some((p) => p.type === 'tool_call'));
}

const latestOf = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : Date.parse(a) >= Date.parse(b) ? a : b);

function mostUsed(messages: Message[]): string | null {
  const counts = new Map<string, number>();
  for (const m of messages) if (m.model && m.agentId === null) counts.set(m.model, (counts.get(m.model) ?? 0) + 1);
  let best: string | null = null;
  for (const [model, n] of counts) if (best === null || n > counts.get(best)!) best = model;
  return best;
}

export function buildQwenSession(chain: QwenChain, ctx: QwenContext, warnings: WarningList): Session {
  const { layout } = ctx;
  const facts = convertRecords(chain.records, warnings);
  if (chain.foreign.count) {
    warnings.add(
      'foreign_records',
      `${plural(chain.foreign.count, 'record')} of this file name${chain.foreign.count === 1 ? 's' : ''} another session (${chain.foreign.ids.join(', ')}), not ${layout.sessionId}; Qwen Code does not load ${chain.foreign.count === 1 ? 'it' : 'them'} with this session, and ${chain.foreign.count === 1 ? 'it is' : 'they are'} left out.`,
    );
  }
  for (const [kind, n] of facts.unknown) warnings.add('unknown_record_type', `Unknown Qwen Code record "${kind}" (${plural(n, 'record')}) skipped.`);
  for (const [kind, n] of facts.unknownParts) warnings.add('unknown_block_type', `Unknown Qwen Code content part "${kind}" (${plural(n, 'part')}) ignored.`);
  const { messages } = facts;
  const usage = emptyUsage();
  const cost = new CostTotal();
  let priced = false;
  for (const m of messages) {
    if (!m.usage) continue;
    priced = true;
    addUsage(usage, m.usage);
    m.cost = builtinPricing.estimate(m.model, m.usage);
    cost.add(m.cost, m.usage);
    if (!m.cost)
      warnings.add('unpriced_model', `No price is known for model ${JSON.stringify(m.model ?? 'unknown')}; its tokens are not in the estimated cost.`);
  }
  const [createdAt, updatedAt] = timeRange(chain.all);
  const cwds = [...new Set(field(chain.records, 'cwd'))];
  const path = cwds[0] ?? null;
  const model = mostUsed(messages) ?? facts.sessionModel;
  const versions = field(chain.records, 'version');
  const extra: Record<string, unknown> = { projectFolder: layout.projectDir };
  if (layout.archived) extra.archived = true;
  if (cwds.length > 1) extra.cwds = cwds;
  // Rewinding is something the user did: the abandoned branch is a fact, not a fault of the file.
  if (chain.dropped) extra.rewind = { droppedRecords: chain.dropped };
  return {
    key: `qwen-code:${layout.sessionId}`,
    id: layout.sessionId,
    format: 'qwen-code',
    formatVersion: null,
    title: titleFromText(facts.title) ?? firstPrompt(messages) ?? `Qwen Code session ${layout.sessionId.slice(0, 8)}`,
    project: { path, name: path ? lastSegment(path) : null, branch: field(chain.records, 'gitBranch').at(-1) ?? null, headCommit: null },
    createdAt,
    updatedAt,
    closedAt: null,
    // The file's last write counts its foreign records too: a file holding only another session's old records is not running.
    status: isLive(messages, latestOf(updatedAt, chain.foreign.lastWritten), ctx) ? 'active' : 'unknown',
    outcome: null,
    model: model ? { provider: null, name: model, parameters: {} } : null,
    config: [],
    systemPrompt: null,
    toolVersion: versions.at(-1) ?? null,
    messages,
    operations: [],
    todos: [],
    summary: null,
    artifacts: [],
    usage: priced ? usage : null,
    cost: cost.total(),
    parentKey: facts.parentSessionId ? `qwen-code:${facts.parentSessionId}` : null,
    childKeys: [],
    sourceFiles: [primarySourceFile(ctx)],
    warnings: warnings.list(),
    extra,
  };
}
