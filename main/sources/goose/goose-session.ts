// Assembles one Goose session from its sessions row, its messages and its usage: title, model, project, sub-agent links, status.
import { ACTIVE_WINDOW_MS } from '../../../shared/activity.ts';
import type { LifecycleStatus, Message, ModelInfo, Session, SessionSummaryText, SourceFile } from '../../../shared/session.ts';
import { isRecord, lastSegment, limitDepth, titleFromText, type Fields, type WarningList } from '../coerce.ts';
import type { GooseUsage } from './goose-usage.ts';
import { gooseTime } from './goose-time.ts';

export interface GoosePieces {
  session: Fields;
  messages: Message[];
  usage: GooseUsage;
  childIds: string[];
  schemaVersion: number | null;
  sourceFiles: SourceFile[];
  warnings: WarningList;
  now: number;
}

/** `model_config_json`: the model's name, and its other settings (context limit, temperature ...) as parameters. */
export function gooseModel(session: Fields): ModelInfo | null {
  const provider = session.string('provider_name');
  const text = session.string('model_config_json');
  let config: Record<string, unknown> = {};
  if (text) {
    try {
      const value: unknown = JSON.parse(text);
      if (isRecord(value)) config = value;
      else session.warnings.wrongType(session.name('model_config_json'), 'a JSON object', value);
    } catch {
      session.warnings.add('invalid_json', `Column "${session.name('model_config_json')}" is not valid JSON; it was skipped.`);
    }
  }
  const { model_name: name, ...rest } = config;
  const parameters = limitDepth(rest, session.warnings, session.name('model_config_json')) as Record<string, unknown>;
  if (!provider && typeof name !== 'string') return null;
  return { provider: provider || null, name: typeof name === 'string' ? name : null, parameters };
}

function firstPrompt(messages: Message[]): string | null {
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const title = titleFromText(m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n'));
    if (title) return title;
  }
  return null;
}

function latest(...times: Array<string | null | undefined>): string | null {
  let best: string | null = null;
  for (const t of times) if (t && (best === null || Date.parse(t) > Date.parse(best))) best = t;
  return best;
}

/** Goose writes no end marker: an archived session is closed; otherwise it runs while its own records are recent. */
function statusOf(archivedAt: string | null, lastActivity: string | null, now: number): LifecycleStatus {
  if (archivedAt) return 'closed';
  const at = lastActivity ? Date.parse(lastActivity) : NaN;
  return !Number.isNaN(at) && now - at < ACTIVE_WINDOW_MS ? 'active' : 'unknown';
}

function recipeTitle(session: Fields): string | null {
  const text = session.string('recipe_json');
  if (!text) return null;
  try {
    const recipe: unknown = JSON.parse(text);
    return isRecord(recipe) && typeof recipe.title === 'string' ? recipe.title : null;
  } catch {
    return null;
  }
}

function extraOf(s: Fields, usage: GooseUsage): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  const put = (name: string, value: unknown) => {
    if (value !== null && value !== undefined && value !== '') extra[name] = value;
  };
  put('sessionType', s.string('session_type'));
  put('mode', s.string('goose_mode'));
  put('projectId', s.string('project_id'));
  put('scheduleId', s.string('schedule_id'));
  put('recipe', recipeTitle(s));
  put('archivedAt', gooseTime(s.raw.archived_at));
  if (s.number('user_set_name') === 1) extra.userSetName = true;
  // The context the last request carried (not a running total: accumulated_* and the ledger are).
  put('contextTokens', s.number('total_tokens'));
  if (usage.operations.some((o) => o.type === 'compaction')) extra.compactions = usage.operations.filter((o) => o.type === 'compaction').length;
  return extra;
}

export function buildGooseSession(p: GoosePieces): Session {
  const s = p.session;
  const id = String(s.raw.id);
  const name = s.string('name')?.trim() || null;
  const description = s.string('description')?.trim() || null;
  const title = titleFromText(name) ?? titleFromText(description) ?? firstPrompt(p.messages) ?? `Goose session ${id}`;
  const cwd = s.string('working_dir') || null;
  const parent = s.string('parent_session_id') || null;
  const archivedAt = gooseTime(s.raw.archived_at);
  const createdAt = gooseTime(s.raw.created_at) ?? p.messages.find((m) => m.timestamp)?.timestamp ?? null;
  const updatedAt = latest(gooseTime(s.raw.updated_at), p.messages.findLast((m) => m.timestamp)?.timestamp, p.usage.operations.at(-1)?.timestamp);
  // The description is kept where it differs from the name the list shows.
  const summary: SessionSummaryText | null =
    description && description !== title ? { overview: description, decisions: [], outcomes: [], openItems: [], tags: [] } : null;
  const extra = extraOf(s, p.usage);
  return {
    key: `goose:${id}`,
    id,
    format: 'goose',
    formatVersion: p.schemaVersion !== null ? `schema ${p.schemaVersion}` : 'unversioned',
    title,
    project: { path: cwd, name: cwd ? lastSegment(cwd) : null, branch: null, headCommit: null },
    createdAt,
    updatedAt,
    closedAt: archivedAt,
    status: statusOf(archivedAt, latest(updatedAt, createdAt), p.now),
    outcome: null,
    model: gooseModel(s),
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages: p.messages,
    operations: p.usage.operations,
    todos: [],
    summary,
    artifacts: [],
    usage: p.usage.usage,
    cost: p.usage.cost,
    parentKey: parent ? `goose:${parent}` : null,
    childKeys: p.childIds.map((c) => `goose:${c}`),
    sourceFiles: p.sourceFiles,
    warnings: p.warnings.list(),
    extra,
  };
}
