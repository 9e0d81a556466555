// Assembles the canonical Session from a Cline-family task folder: the history (or the UI messages alone), request tokens and cost, model, project, status.
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { Message, Session, SourceFile, TokenUsage } from '../../../shared/session.ts';
import { describeJson, emptyUsage, Fields, isRecord, lastSegment, primarySourceFile, titleFromText, WarningList, type DocumentContext } from '../coerce.ts';
import { textOf } from '../claude-code/claude-code-blocks.ts';
import { warnMissingContent } from '../missing-content.ts';
import { convertHistory } from './cline-history.ts';
import { HISTORY_FILE, taskPlace, type ClineApp } from './cline-paths.ts';
import { convertUi, type UiConversion } from './cline-ui.ts';
import { splitUserText } from './cline-text.ts';
import { UnreadableError } from '../types.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { taskRequests } from './cline-requests.ts';
import { modelAt, modelTimeline, type ModelTimeline } from './cline-models.ts';

/** The files read beside the session's own: the UI messages (when the history is the session's file) and the metadata. */
export interface TaskCompanions {
  /** ui_messages.json's list, when it lies beside the history and reads. */
  ui: unknown[] | null;
  /** task_metadata.json (Cline, Kilo). */
  taskMetadata: Record<string, unknown> | null;
  /** history_item.json (Roo Code). */
  historyItem: Record<string, unknown> | null;
  files: SourceFile[];
}

export interface ClineContext extends DocumentContext {
  now: number;
  companions: TaskCompanions;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The last model task_metadata.json records (`model_usage: [{ts, model_id, model_provider_id, mode}]`), and each
 * model switch with its time, in order (`ModelTimeline`).
 */
function metadataModel(
  meta: Record<string, unknown> | null,
  warnings: WarningList,
): { name: string | null; provider: string | null; mode: string | null; timeline: ModelTimeline } {
  const f = meta ? new Fields(meta, 'task_metadata.json', warnings) : null;
  const usage = (f?.present('model_usage') ? (f.array('model_usage') ?? []) : []).filter(isRecord);
  const last = usage.at(-1);
  const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const timeline = modelTimeline(usage.map((u) => ({ atMs: typeof u.ts === 'number' && Number.isFinite(u.ts) ? u.ts : null, model: s(u.model_id) })));
  return { name: s(last?.model_id), provider: s(last?.model_provider_id), mode: s(last?.mode), timeline };
}

/** Roo Code's history_item.json totals, used when the UI messages record no request. */
function historyItemUsage(item: Record<string, unknown> | null): { usage: TokenUsage | null; cost: number | null } {
  if (!item) return { usage: null, cost: null };
  const n = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
  const usage = emptyUsage();
  usage.input = n(item.tokensIn);
  usage.output = n(item.tokensOut);
  usage.cacheRead = n(item.cacheReads);
  usage.cacheWrite = n(item.cacheWrites);
  const any = usage.input + usage.output + usage.cacheRead + usage.cacheWrite > 0;
  const cost = typeof item.totalCost === 'number' && Number.isFinite(item.totalCost) && item.totalCost >= 0 ? item.totalCost : null;
  return { usage: any ? usage : null, cost };
}

/** Cline's task ids are the task's start in epoch milliseconds. */
function idTime(taskId: string): string | null {
  if (!/^\d{12,14}$/.test(taskId)) return null;
  const d = new Date(Number(taskId));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * Parses the task's file (`api_conversation_history.json`, or `ui_messages.json` when it lies alone) with its companions
 * already read (pure: tests call it directly).
 */
export function parseClineTask(app: ClineApp, value: unknown, ctx: ClineContext): Session {
  const place = taskPlace(app, ctx.path);
  if (!place)
    throw new UnreadableError('wrong_shape', `Not a ${app.label} task file: it does not lie in a tasks/<id>/ folder of ${app.extensionIds.join(' or ')}.`);
  const fromHistory = place.name === HISTORY_FILE;
  if (!Array.isArray(value)) {
    throw new UnreadableError('wrong_shape', `Not a ${app.label} ${place.name}: the file holds ${describeJson(value)} where a list of messages is expected.`);
  }
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const { companions } = ctx;
  const uiList = fromHistory ? companions.ui : value;
  const ui: UiConversion | null = uiList ? convertUi(uiList, warnings) : null;
  const history = fromHistory ? convertHistory(value, warnings) : null;
  const messages: Message[] = history ? history.messages : (ui?.messages ?? []);

  for (const [role, n] of history?.unknownRoles ?? [])
    warnings.add('unknown_record_type', `Unknown ${app.label} history role "${role}" (${plural(n, 'message')}) skipped.`);
  for (const [kind, n] of ui?.unknownKinds ?? []) {
    const what = fromHistory ? 'ignored (the conversation is read from the history)' : kind.includes(':') ? 'shown as assistant text' : 'skipped';
    warnings.add('unknown_record_type', `Unknown ${app.label} UI message kind "${kind}" (${plural(n, 'record')}) ${what}.`);
  }
  const empty = history ? history.empty : (ui?.empty ?? 0);
  warnMissingContent(warnings, `A ${app.label} message`, { count: empty });

  const facts = ui?.facts ?? null;
  const item = companions.historyItem;
  const itemTotals = historyItemUsage(item);
  const usage = facts?.usage ?? itemTotals.usage;
  const meta = metadataModel(companions.taskMetadata, warnings);
  const modelName = meta.name ?? facts?.model ?? null;
  const provider = meta.provider ?? facts?.provider ?? null;
  const profile = typeof item?.apiConfigName === 'string' ? item.apiConfigName : null;
  const mode = meta.mode ?? (typeof item?.mode === 'string' ? item.mode : null);

  const cwd = history?.cwd ?? facts?.cwd ?? (typeof item?.workspace === 'string' && item.workspace ? item.workspace : null);
  const stamps = [...messages.map((m) => m.timestamp), facts?.firstAt ?? null, facts?.lastAt ?? null].filter((t): t is string => t !== null).sort();
  const createdAt = idTime(place.taskId) ?? stamps[0] ?? null;
  const updatedAt = stamps.at(-1) ?? createdAt;
  const running = !facts?.completed && ctx.now - ctx.mtimeMs < ACTIVE_WINDOW_MS && (updatedAt === null || ctx.now - Date.parse(updatedAt) < ACTIVE_WINDOW_MS);

  const prompt = messages.find((m) => m.role === 'user' && textOf(m.parts).trim() !== '');
  const firstPrompt = facts?.firstPrompt ? splitUserText(facts.firstPrompt).text : null;
  const itemTask = typeof item?.task === 'string' ? item.task : null;
  const title =
    titleFromText(prompt ? textOf(prompt.parts) : null) ?? titleFromText(firstPrompt) ?? titleFromText(itemTask) ?? `${app.label} task ${place.taskId}`;

  const extra: Record<string, unknown> = { extension: place.extensionId };
  if (facts?.requests) extra.apiRequests = facts.requests;
  if (mode) extra.mode = mode;
  if (profile) extra.apiProfile = profile;
  if (!fromHistory) extra.readFrom = 'ui_messages.json (the task has no api_conversation_history.json)';
  const files = companions.taskMetadata?.files_in_context;
  if (Array.isArray(files)) extra.filesInContext = files.length;
  if (history?.looseEnvironment.length) extra.environmentDetails = history.looseEnvironment;
  const parentId = typeof item?.parentTaskId === 'string' && item.parentTaskId ? item.parentTaskId : null;
  const childIds = Array.isArray(item?.childIds) ? item.childIds.filter((c): c is string => typeof c === 'string' && c !== '') : [];
  // Each request at its own time; ui_messages.json is the first companion beside the history, or the session's own file.
  const uiAt = companions.files.findIndex((f) => f.role === 'transcript');
  const requests = facts?.calls.length ? taskRequests(facts.calls, meta.timeline, modelName, fromHistory ? (uiAt >= 0 ? uiAt + 1 : null) : 0) : null;
  // The model that answered: the one task_metadata.json had in use at the answer's time (a task may switch models).
  for (const m of messages) if (m.role === 'assistant' && m.model === null) m.model = modelAt(meta.timeline, m.timestamp) ?? modelName;

  return {
    key: `${app.format}:${place.taskId}`,
    id: place.taskId,
    format: app.format,
    formatVersion: null,
    title,
    project: { path: cwd, name: cwd ? lastSegment(cwd) : null, branch: null, headCommit: null },
    createdAt,
    updatedAt,
    closedAt: null,
    status: running ? 'active' : 'closed',
    outcome: facts?.completed ? { status: 'completed', summary: facts.completion, commitSha: null } : null,
    model: modelName || provider || profile ? { provider, name: modelName, parameters: profile ? { apiProfile: profile } : {} } : null,
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages,
    operations: requests?.operations ?? [],
    todos: [],
    summary: null,
    artifacts: [],
    usage,
    // The requests' costs (recorded, else estimated); without requests, Roo's history item total, else an estimate from tokens.
    cost: requests ? requests.cost : itemTotals.cost !== null ? { usd: itemTotals.cost, estimated: false } : builtinPricing.estimate(modelName, usage),
    parentKey: parentId ? `${app.format}:${parentId}` : null,
    childKeys: childIds.map((id) => `${app.format}:${id}`),
    sourceFiles: [primarySourceFile(ctx), ...companions.files],
    warnings: warnings.list(),
    extra,
  };
}
