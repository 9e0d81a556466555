// Reads JidoCode's saved sessions (~/.jido_code/sessions/<id>.json, persisted schema version 1).
import { heldKeys, warnMissingContent } from '../missing-content.ts';
import { recognizesJidoCode } from './jido-code-recognize.ts';
import { shellArg } from '../shell-quote.ts';
import { basename, dirname, extname, join } from 'node:path';
import type { Cost, Message, MessagePart, MessageRole, ModelInfo, Session, Todo, TokenUsage } from '../../../shared/session.ts';
import {
  addUsage,
  elementFields,
  emptyUsage,
  Fields,
  flattenConfig,
  isRecord,
  lastSegment,
  notAnObject,
  primarySourceFile,
  noUsableField,
  readDocument,
  titleFromText,
  warnUnknownFields,
  WarningList,
  type DocumentContext,
} from '../coerce.ts';
import { UnreadableError, type SourceReader } from '../types.ts';

/** The only persisted schema version JidoCode writes; it refuses anything newer. */
export const JIDO_VERSION = 1;

const KNOWN_FIELDS = [
  'version',
  'id',
  'name',
  'project_path',
  'config',
  'created_at',
  'updated_at',
  'closed_at',
  'conversation',
  'todos',
  'signature',
  'language',
  'cumulative_usage',
  'prompt_history',
] as const;

/** `*.json` directly inside `.jido_code/sessions/`; the writer's `<id>.json.tmp` never matches. */
export function claimsJidoCode(absPath: string): boolean {
  if (extname(absPath) !== '.json') return false;
  const sessionsDir = dirname(absPath);
  return basename(sessionsDir) === 'sessions' && basename(dirname(sessionsDir)) === '.jido_code';
}

function toRole(raw: string): MessageRole | null {
  const text = raw.toLowerCase();
  return text === 'user' || text === 'assistant' || text === 'system' || text === 'tool' ? text : null;
}

/** `{input_tokens, output_tokens, total_cost}` as JidoCode records it per message and cumulatively. */
function readUsage(f: Fields | null): { usage: TokenUsage | null; cost: Cost | null } {
  if (!f) return { usage: null, cost: null };
  const input = f.number('input_tokens');
  const output = f.number('output_tokens');
  const total = f.number('total_cost');
  const usage = input !== null || output !== null ? { ...emptyUsage(), input: Math.max(0, input ?? 0), output: Math.max(0, output ?? 0) } : null;
  return { usage, cost: total !== null ? { usd: total, estimated: false } : null };
}

function readVersion(top: Fields): void {
  const version = top.number('version');
  if (version === null) return;
  if (!Number.isInteger(version) || version < 1) {
    top.used.delete('version');
    top.warnings.add('wrong_type', `Field "version" should be a whole number of at least 1 but is ${version}; read as version ${JIDO_VERSION}.`);
    return;
  }
  if (version > JIDO_VERSION) {
    throw new UnreadableError(
      'unsupported_version',
      `JidoCode session version ${version} is newer than this app understands (it reads version ${JIDO_VERSION}); JidoCode itself refuses to load it.`,
    );
  }
}

function readMessages(top: Fields): Message[] {
  const messages: Message[] = [];
  (top.array('conversation') ?? []).forEach((raw, i) => {
    const f = elementFields(raw, 'conversation', top.warnings);
    if (!f) return;
    const roleText = f.string('role');
    const role = roleText === null ? null : toRole(roleText);
    if (role === null) {
      const why = roleText === null ? 'has no role' : `has the unknown role ${JSON.stringify(roleText)}`;
      top.warnings.add('unknown_role', `A "conversation" entry ${why}; it was skipped.`);
      return;
    }
    const content = f.string('content');
    // A tool that printed nothing is a result; a turn with an empty text is no message.
    const missing = content === null || (role !== 'tool' && !content.trim());
    // Tool messages hold the tool's output, not prose; the viewer shows them as results.
    const parts: MessagePart[] = missing
      ? []
      : role === 'tool'
        ? [{ type: 'tool_result', callId: null, output: content, isError: null }]
        : [{ type: 'text', text: content }];
    const { usage, cost } = readUsage(f.object('usage'));
    if (missing) {
      const found = f.present('content') ? (content === null ? undefined : 'its content is empty') : heldKeys(f.raw, ['id', 'role', 'timestamp']);
      warnMissingContent(top.warnings, `A JidoCode ${roleText} message`, { ...(found ? { found } : {}), ...(usage ? { keptFor: 'its token counts' } : {}) });
      if (!usage) return;
    }
    messages.push({
      id: f.string('id') ?? `conversation-${i}`,
      role,
      timestamp: f.timestamp('timestamp'),
      model: null,
      usage,
      cost,
      parts,
      agentId: null,
      origin: { fileIndex: 0, line: null, pointer: `/conversation/${i}` },
    });
  });
  return messages;
}

function readTodos(top: Fields): Todo[] {
  const todos: Todo[] = [];
  for (const raw of top.array('todos') ?? []) {
    const f = elementFields(raw, 'todos', top.warnings);
    if (!f) continue;
    const content = f.string('content');
    if (content === null) {
      top.warnings.add('missing_field', 'A todo has no text ("content"); it was skipped.');
      continue;
    }
    todos.push({ content, status: f.string('status') ?? 'unknown', activeForm: f.string('active_form') });
  }
  return todos;
}

function readModel(config: Fields | null): ModelInfo | null {
  if (!config) return null;
  const parameters: Record<string, unknown> = {};
  const temperature = config.number('temperature');
  const maxTokens = config.number('max_tokens');
  if (temperature !== null) parameters.temperature = temperature;
  if (maxTokens !== null) parameters.maxTokens = maxTokens;
  const provider = config.string('provider');
  const name = config.string('model');
  if (provider === null && name === null && Object.keys(parameters).length === 0) return null;
  return { provider, name, parameters };
}

/** Session totals: the recorded cumulative_usage when present, else the sum over messages that carry usage. */
function totals(top: Fields, messages: Message[]): { usage: TokenUsage | null; cost: Cost | null } {
  const recorded = readUsage(top.object('cumulative_usage'));
  if (recorded.usage || recorded.cost) return recorded;
  const withUsage = messages.filter((m) => m.usage || m.cost);
  if (withUsage.length === 0) return { usage: null, cost: null };
  const usage = emptyUsage();
  let usd = 0;
  let anyCost = false;
  for (const m of withUsage) {
    if (m.usage) addUsage(usage, m.usage);
    if (m.cost) {
      usd += m.cost.usd;
      anyCost = true;
    }
  }
  return { usage, cost: anyCost ? { usd, estimated: false } : null };
}

/** Parses a decoded JidoCode session document into the canonical model (pure; tests call it directly). */
export function parseJidoDocument(value: unknown, ctx: DocumentContext): Session {
  if (!isRecord(value)) throw notAnObject(value, 'JidoCode session');
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const top = new Fields(value, '', warnings);
  readVersion(top);

  const id = top.string('id') ?? basename(ctx.path, extname(ctx.path));
  const projectPath = top.string('project_path');
  const config = top.object('config');
  const messages = readMessages(top);
  const { usage, cost } = totals(top, messages);
  const closedAt = top.timestamp('closed_at');

  const extra: Record<string, unknown> = {};
  const language = top.string('language');
  if (language !== null) extra.language = language;
  // The HMAC key is machine-specific, so the signature cannot be checked here; only its presence is shown.
  if (top.string('signature') !== null) extra.signed = true;
  if (top.present('prompt_history')) {
    const history = top.array('prompt_history');
    if (history) extra.prompt_history = top.value('prompt_history');
  }

  const name = top.string('name');
  const firstUser = messages.find((m) => m.role === 'user')?.parts[0];
  const session: Session = {
    key: `jido-code:${id}`,
    id,
    format: 'jido-code',
    formatVersion: String(JIDO_VERSION),
    title: titleFromText(name) ?? (firstUser?.type === 'text' ? titleFromText(firstUser.text) : null) ?? 'JidoCode session',
    project: { path: projectPath, name: projectPath ? lastSegment(projectPath) : null, branch: null, headCommit: null },
    createdAt: top.timestamp('created_at'),
    updatedAt: top.timestamp('updated_at'),
    closedAt,
    status: closedAt !== null ? 'closed' : 'unknown',
    outcome: null,
    model: readModel(config),
    config: config ? flattenConfig(config, 'session') : [],
    systemPrompt: null,
    toolVersion: null,
    messages,
    operations: [],
    todos: readTodos(top),
    summary: null,
    artifacts: [],
    usage,
    cost,
    parentKey: null,
    childKeys: [],
    sourceFiles: [primarySourceFile(ctx)],
    warnings: [],
    extra,
  };

  if (top.used.size === 0) throw noUsableField(value, warnings, 'JidoCode', KNOWN_FIELDS);
  warnUnknownFields(top, KNOWN_FIELDS);
  session.warnings = warnings.list();
  return session;
}

export const jidoCodeReader: SourceReader = {
  format: 'jido-code',
  capabilities: { tokens: true, recordedCost: true, subAgents: false, toolResults: true, thinking: false, images: false },
  defaultRoots: (_env, home) => [join(home, '.jido_code', 'sessions')],
  // JidoCode resumes from inside its TUI.
  resumeCommand: (s) => `jido_code  # then: /resume ${shellArg(s.id)}`,
  claims: claimsJidoCode,
  recognizes: recognizesJidoCode,
  async read(absPath) {
    const { value, ctx } = await readDocument(absPath);
    return parseJidoDocument(value, ctx);
  },
};
