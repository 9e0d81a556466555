// Copilot CLI session lifecycle: start and resume (folder, branch, model), model changes, turns, usage checkpoints and shutdown.
import { type Fields } from '../coerce.ts';
import type { CopilotState, EventCtx, ModelMetric, WorkingContext } from './copilot-state.ts';

function contextOf(data: Fields): WorkingContext | null {
  const c = data.present('context') ? data.object('context') : null;
  if (!c) return null;
  return { cwd: c.string('cwd'), branch: c.string('branch'), headCommit: c.string('headCommit'), repository: c.string('repository') };
}

function noteContext(state: CopilotState, data: Fields): void {
  const context = contextOf(data);
  if (context && (context.cwd || context.branch)) state.contexts.push(context);
}

export function onStart(state: CopilotState, ev: EventCtx, resumed: boolean): void {
  const { data } = ev;
  if (!resumed) {
    state.sessionId ??= data.string('sessionId');
    state.version ??= data.string('copilotVersion');
    state.producer ??= data.string('producer');
  } else {
    state.resumes++;
  }
  noteContext(state, data);
  state.model = data.string('selectedModel') ?? state.model;
  state.reasoningEffort = data.string('reasoningEffort') ?? state.reasoningEffort;
  state.shutdownAt = null;
  state.openTurns = 0;
}

export function onContextChanged(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  const cwd = data.string('cwd');
  if (cwd) state.contexts.push({ cwd, branch: data.string('branch'), headCommit: data.string('headCommit'), repository: data.string('repository') });
}

export function onModelChange(state: CopilotState, ev: EventCtx): void {
  state.model = ev.data.string('newModel') ?? state.model;
  const effort = ev.data.string('reasoningEffort');
  if (effort) state.reasoningEffort = effort;
}

/** Auto mode picks a model per prompt; later messages are that model's. */
export function onAutoModeResolved(state: CopilotState, ev: EventCtx): void {
  state.model = ev.data.string('chosenModel') ?? state.model;
}

export function onTurn(state: CopilotState, phase: 'start' | 'end'): void {
  state.openTurns = phase === 'start' ? state.openTurns + 1 : Math.max(0, state.openTurns - 1);
}

/** usage_checkpoint keeps the cumulative AI-unit and premium-request totals across a resume. */
export function onUsageCheckpoint(state: CopilotState, ev: EventCtx): void {
  state.nanoAiu = ev.data.number('totalNanoAiu') ?? state.nanoAiu;
  state.premiumRequests = ev.data.number('totalPremiumRequests') ?? state.premiumRequests;
}

const n = (f: Fields | null, key: string) => Math.max(0, f?.number(key) ?? 0);

/** `tokenDetails: {input: {tokenCount}, ...}`, the session-wide counts newer CLIs add. */
function tokenDetail(details: Fields, key: string): number {
  const entry = details.present(key) ? details.object(key) : null;
  return n(entry, 'tokenCount');
}

function metricsOf(data: Fields, ev: EventCtx): ModelMetric[] {
  const out: ModelMetric[] = [];
  const byModel = data.present('modelMetrics') ? data.object('modelMetrics') : null;
  for (const model of Object.keys(byModel?.raw ?? {})) {
    const m = byModel!.object(model);
    const usage = m?.present('usage') ? m.object('usage') : null;
    if (!m || !usage) continue;
    const requests = m.present('requests') ? m.object('requests') : null;
    out.push({
      model,
      input: n(usage, 'inputTokens'),
      output: n(usage, 'outputTokens'),
      cacheRead: n(usage, 'cacheReadTokens'),
      cacheWrite: n(usage, 'cacheWriteTokens'),
      reasoning: n(usage, 'reasoningTokens'),
      requests: requests?.number('count') ?? null,
      nanoAiu: m.number('totalNanoAiu'),
      ts: ev.ts,
      line: ev.line,
      source: 'modelMetrics',
    });
  }
  if (out.length) return out;
  // Per-model counts missing: the session-wide token details, for the model in use at shutdown.
  const details = data.present('tokenDetails') ? data.object('tokenDetails') : null;
  if (!details) return out;
  const model = data.string('currentModel') ?? Object.keys(byModel?.raw ?? {})[0] ?? '';
  out.push({
    model,
    input: tokenDetail(details, 'input'),
    output: tokenDetail(details, 'output'),
    cacheRead: tokenDetail(details, 'cache_read'),
    cacheWrite: tokenDetail(details, 'cache_write'),
    reasoning: tokenDetail(details, 'reasoning'),
    requests: null,
    nanoAiu: null,
    ts: ev.ts,
    line: ev.line,
    source: 'tokenDetails',
  });
  return out;
}

/** session.shutdown: the end of one process run, with that run's token usage per model. */
export function onShutdown(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  state.metrics.push(...metricsOf(data, ev));
  // What the messages of this run counted is in the shutdown's totals now.
  state.tailOutput.clear();
  state.nanoAiu = data.number('totalNanoAiu') ?? state.nanoAiu;
  state.premiumRequests = data.number('totalPremiumRequests') ?? state.premiumRequests;
  state.shutdownAt = { ts: ev.ts };
  state.openTurns = 0;
  const facts = state.shutdownFacts;
  const type = data.string('shutdownType');
  if (type) facts.shutdownType = type;
  const reason = data.string('errorReason');
  if (reason) facts.errorReason = reason;
  const changes = data.present('codeChanges') ? data.object('codeChanges') : null;
  if (changes) {
    facts.linesAdded = n(changes, 'linesAdded') + ((facts.linesAdded as number | undefined) ?? 0);
    facts.linesRemoved = n(changes, 'linesRemoved') + ((facts.linesRemoved as number | undefined) ?? 0);
  }
  const api = data.number('totalApiDurationMs');
  if (api !== null) facts.apiDurationMs = api + ((facts.apiDurationMs as number | undefined) ?? 0);
}
