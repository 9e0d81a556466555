// Reads Droid (Factory) sessions: interactive ones (+ their .settings.json) and `droid exec` stream-json logs.
import { join } from 'node:path';
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { LifecycleStatus, ModelInfo, Session } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { Fields, isRecord, kindOfJson, lastSegment, primarySourceFile, titleFromText, WarningList, type DocumentContext } from '../coerce.ts';
import { statPath } from '../file-bytes.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { shellArg } from '../shell-quote.ts';
import { UnreadableError, type SourceReader } from '../types.ts';
import { claimsDroid, fileIdOf, isDroidCompanion } from './droid-paths.ts';
import { droidDialectOf, recognizesDroid, type DroidDialect } from './droid-recognize.ts';
import { readDroidSettings, type DroidSettings } from './droid-settings.ts';
import { newDroidState, type DroidState } from './droid-state.ts';
import { storeRecord } from './droid-store.ts';
import { streamRecord } from './droid-stream.ts';
import { cannotRead } from '../read-failure.ts';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function firstPrompt(state: DroidState): string | null {
  for (const m of state.messages) {
    const text = m.role === 'user' ? m.parts.find((p) => p.type === 'text') : undefined;
    const title = text?.type === 'text' ? titleFromText(text.text) : null;
    if (title) return title;
  }
  return null;
}

/** Running: written within the window (file and records), the run not ended, and no final answer yet. */
function lifecycle(state: DroidState, ctx: DocumentContext, now: number): LifecycleStatus {
  if (state.outcome || now - ctx.mtimeMs >= ACTIVE_WINDOW_MS) return 'closed';
  if (state.lastTimestamp !== null && now - Date.parse(state.lastTimestamp) >= ACTIVE_WINDOW_MS) return 'closed';
  const last = state.messages.filter((m) => m.role !== 'system').at(-1);
  const final = last?.role === 'assistant' && !last.parts.some((p) => p.type === 'tool_call');
  return last && !final ? 'active' : 'closed';
}

function readRecords(records: readonly JsonLine[], dialect: DroidDialect, state: DroidState): void {
  for (const { value, line } of records) {
    if (!isRecord(value)) {
      state.warnings.add('not_a_record', `Lines holding ${kindOfJson(value)} instead of a record object were skipped.`);
      continue;
    }
    const rec = new Fields(value, '', state.warnings);
    const type = rec.string('type');
    if (type === null) {
      state.warnings.add('missing_type', 'Records without a "type" were skipped.');
      continue;
    }
    if (dialect === 'session') storeRecord(state, rec, type, line);
    else streamRecord(state, rec, type, line);
  }
  for (const [type, n] of state.unknownTypes) state.warnings.add('unknown_record_type', `Unknown record type "${type}" (${plural(n, 'record')}) skipped.`);
  for (const [type, n] of state.unknownBlocks)
    state.warnings.add('unknown_block_type', `Unknown content block type "${type}" (${plural(n, 'block')}) skipped.`);
}

function modelInfo(state: DroidState, settings: DroidSettings | null): ModelInfo | null {
  const name = settings?.model ?? state.model;
  const parameters = { ...state.config, ...(settings?.config ?? {}) };
  delete parameters.tools;
  if (name === null && !settings?.provider && !Object.keys(parameters).length) return null;
  return { provider: settings?.provider ?? null, name, parameters };
}

/** Parses a Droid file's lines (pure: tests feed hostile records through it). */
export function parseDroid(
  records: readonly JsonLine[],
  ctx: DocumentContext,
  settings: DroidSettings | null,
  now = Date.now(),
  warnings = new WarningList(),
): Session {
  warnings.addAll(ctx.warnings);
  const dialect = droidDialectOf(
    records
      .slice(0, 8)
      .map((r) => r.value)
      .filter(isRecord),
  );
  if (dialect === null) {
    throw new UnreadableError(
      'wrong_shape',
      'Not a Droid session: it starts neither with a "session_start" record nor with droid exec stream-json records carrying a session id.',
    );
  }
  const state = newDroidState(warnings);
  readRecords(records, dialect, state);
  const id = state.sessionId ?? fileIdOf(ctx.path);
  const usage = settings?.usage ?? state.usage;
  const model = modelInfo(state, settings);
  const cost = usage ? builtinPricing.estimate(model?.name, usage) : null;
  if (usage && model?.name && !cost)
    warnings.add('unpriced_model', `No price is known for model ${JSON.stringify(model.name)}; its tokens are not in the estimated cost.`);
  const extra: Record<string, unknown> = { dialect: dialect === 'session' ? 'interactive session' : 'droid exec stream-json', ...state.extra };
  if (state.owner !== null) extra.owner = state.owner;
  if (state.otherRecords.size) extra.otherRecords = Object.fromEntries(state.otherRecords);
  if (state.config.tools) extra.tools = state.config.tools;
  return {
    key: `droid:${id}`,
    id,
    format: 'droid',
    formatVersion: null,
    title: [state.title, firstPrompt(state)].map((t) => titleFromText(t)).find((t) => t !== null) ?? `Droid session ${id.slice(0, 8)}`,
    project: { path: state.cwd, name: state.cwd ? lastSegment(state.cwd) : null, branch: null, headCommit: null },
    createdAt: state.firstTimestamp,
    updatedAt: state.lastTimestamp,
    closedAt: null,
    status: lifecycle(state, ctx, now),
    outcome: state.outcome,
    model,
    config: [],
    systemPrompt: null,
    toolVersion: state.version,
    messages: state.messages,
    operations: [],
    todos: state.todos,
    summary: null,
    artifacts: [],
    usage,
    cost,
    parentKey: null,
    childKeys: [],
    sourceFiles: settings ? [primarySourceFile(ctx), settings.file] : [primarySourceFile(ctx)],
    warnings: warnings.list(),
    extra,
  };
}

export async function readDroidFile(absPath: string, now = Date.now()): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  if (!info.isFile()) throw new UnreadableError('io_error', 'Not a regular file.');
  const { records, warnings: decoding } = await readJsonLines(absPath);
  const warnings = new WarningList();
  const settings = await readDroidSettings(absPath, warnings);
  return parseDroid(records, { path: absPath, size: info.size, mtimeMs: info.mtimeMs, warnings: decoding }, settings, now, warnings);
}

/** `DROID_SESSIONS_DIR` (ccusage) names sessions folders, comma-separated. */
function droidRoots(env: NodeJS.ProcessEnv, home: string): string[] {
  const listed = (env.DROID_SESSIONS_DIR ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  return [...(listed.length ? listed : [join(home, '.factory', 'sessions')]), join(home, '.factory', 'projects')];
}

export const droidReader: SourceReader = {
  format: 'droid',
  capabilities: { tokens: true, recordedCost: false, subAgents: false, toolResults: true, thinking: true, images: true },
  defaultRoots: droidRoots,
  // `droid --resume <sessionId>` (Factory's CLI reference).
  resumeCommand: (s) => (s.isSubAgent ? null : `droid --resume ${shellArg(s.id)}`),
  claims: claimsDroid,
  recognizes: recognizesDroid,
  companion: isDroidCompanion,
  read: (absPath) => readDroidFile(absPath),
};
