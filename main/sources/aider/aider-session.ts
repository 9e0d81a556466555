// Assembles the canonical Session of one aider run: its turns, the model and version aider announced, tokens and cost from its usage lines.
import { basename, dirname } from 'node:path';
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Cost, Message, Session, Warning } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { CostTotal } from '../../pricing/cost-total.ts';
import { titleFromText, WarningList } from '../coerce.ts';
import { textOf } from '../claude-code/claude-code-blocks.ts';
import type { AiderRun } from './aider-runs.ts';
import type { RunFacts } from './aider-turns.ts';

export interface AiderRunContext {
  path: string;
  size: number;
  mtimeMs: number;
  now: number;
  id: string;
  run: AiderRun;
  facts: RunFacts;
  /** The file's last run: the one a running aider appends to. */
  isLast: boolean;
  runCount: number;
  /** Decoding warnings of the file (BOM, invalid UTF-8). */
  warnings: Warning[];
}

/** A run still going on: the file's last, written within the window, and started within the last day. */
const LONGEST_RUN_MS = 24 * 3600_000;

function isRunning(ctx: AiderRunContext): boolean {
  if (!ctx.isLast || ctx.now - ctx.mtimeMs >= ACTIVE_WINDOW_MS) return false;
  return ctx.run.startedAt !== null && ctx.now - Date.parse(ctx.run.startedAt) < LONGEST_RUN_MS;
}

/** Aider's own `$x session` figure when it printed one; otherwise each answer's tokens priced with the run's model. */
function costOf(messages: Message[], facts: RunFacts, warnings: WarningList): Cost | null {
  if (facts.sessionCostUsd !== null) return { usd: facts.sessionCostUsd, estimated: false };
  const total = new CostTotal();
  for (const m of messages) {
    if (!m.usage) continue;
    m.cost ??= builtinPricing.estimate(m.model, m.usage);
    const before = total.unpriced;
    total.add(m.cost, m.usage);
    if (total.unpriced > before)
      warnings.add('unpriced_model', `No price is known for model ${JSON.stringify(m.model ?? 'unknown')}; its tokens are not in the estimated cost.`);
  }
  return total.total();
}

export function buildAiderSession(ctx: AiderRunContext): Session {
  const { run, facts } = ctx;
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  if (run.startedAt === null)
    warnings.add('bad_timestamp', `The run header's time ${JSON.stringify(run.header)} is not a date and time aider writes; the run has no start time.`);
  const repo = dirname(ctx.path);
  const prompt = facts.messages.find((m) => m.role === 'user' && textOf(m.parts).trim() !== '');
  const extra: Record<string, unknown> = { run: run.index + 1, runsInFile: ctx.runCount, header: run.header };
  if (facts.gitRepo) extra.gitRepo = facts.gitRepo;
  if (facts.blankInputs) extra.blankInputs = facts.blankInputs;
  return {
    key: `aider:${ctx.id}`,
    id: ctx.id,
    format: 'aider',
    formatVersion: null,
    title: titleFromText(prompt ? textOf(prompt.parts) : null) ?? `Aider run of ${run.header}`,
    // The history file sits at the repository's root.
    project: { path: repo, name: basename(repo), branch: null, headCommit: null },
    createdAt: run.startedAt,
    // Only the last run's end is known: the file's last write.
    updatedAt: ctx.isLast ? new Date(ctx.mtimeMs).toISOString() : run.startedAt,
    closedAt: null,
    status: isRunning(ctx) ? 'active' : 'closed',
    outcome: null,
    model: facts.model ? { provider: null, name: facts.model, parameters: {} } : null,
    config: [],
    systemPrompt: null,
    toolVersion: facts.version,
    messages: facts.messages,
    operations: [],
    todos: [],
    summary: null,
    artifacts: facts.edited.map((path) => ({ path, kind: 'edited', resolvedPath: null, size: null })),
    usage: facts.usage,
    cost: costOf(facts.messages, facts, warnings),
    parentKey: null,
    childKeys: [],
    sourceFiles: [{ path: ctx.path, size: ctx.size, mtimeMs: ctx.mtimeMs, role: 'primary' }],
    warnings: warnings.list(),
    extra,
  };
}
