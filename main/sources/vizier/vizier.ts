// Reads Vizier's repo-local session.json: the real writer's vizier.session.v1 and the seed-000 MVP schema.
import { heldKeys, warnMissingContent } from '../missing-content.ts';
import { realpath, stat } from 'node:fs/promises';
import { shellArg } from '../shell-quote.ts';
import { isWithin } from '../../roots/paths.ts';
import { basename, dirname, extname, isAbsolute, join, relative } from 'node:path';
import { Provenance } from '../../../shared/session.ts';
import type { Artifact, ConfigEntry, Message, MessageRole, ModelInfo, Outcome, Session, SourceFile } from '../../../shared/session.ts';
import {
  elementFields,
  Fields,
  flattenConfig,
  isRecord,
  lastSegment,
  limitDepth,
  noUsableField,
  notAnObject,
  primarySourceFile,
  readDocument,
  titleFromText,
  warnUnknownFields,
  WarningList,
  type DocumentContext,
} from '../coerce.ts';
import { UnreadableError, type SourceReader } from '../types.ts';
import { readOperations } from './vizier-operations.ts';

export const VIZIER_V1 = 'vizier.session.v1';

const KNOWN_FIELDS = [
  'schema',
  'id',
  'created_at',
  'updated_at',
  'tool_version',
  'workflow_type',
  'mode',
  'repo',
  'config_effective',
  'system_prompt',
  'system_prompt_path',
  'system_prompt_hash',
  'model',
  'messages',
  'chat',
  'agent',
  'operations',
  'artifacts',
  'outcome',
] as const;
/** Fields that carry a session's body; a foreign schema string with none of them is a format we cannot read. */
const BODY_FIELDS = KNOWN_FIELDS.filter((k) => !['schema', 'id', 'created_at', 'updated_at', 'outcome'].includes(k));

/** `<repo>/.vizier/sessions/<id>/session.json`, never the writer's `session.json.tmp` checkpoint. */
export function claimsVizier(absPath: string): boolean {
  if (basename(absPath) !== 'session.json') return false;
  const sessionsDir = dirname(dirname(absPath));
  return basename(sessionsDir) === 'sessions' && basename(dirname(sessionsDir)) === '.vizier';
}

/** The repository folder that holds this session on disk, when the file sits in Vizier's layout. */
function repoOnDisk(absPath: string): string | null {
  return claimsVizier(absPath) ? dirname(dirname(dirname(dirname(absPath)))) : null;
}

function toRole(text: string): MessageRole | null {
  const role = text.toLowerCase();
  return role === 'user' || role === 'assistant' || role === 'system' || role === 'tool' ? role : null;
}

function readMessages(top: Fields): Message[] {
  const listName = top.present('chat') ? 'chat' : 'messages';
  const list = top.array(listName) ?? [];
  const messages: Message[] = [];
  list.forEach((raw, i) => {
    const f = elementFields(raw, listName, top.warnings);
    if (!f) return;
    // The early (Nov 2025) writer used message_type + api{provider, model} instead of role.
    const roleText = f.present('role') ? f.string('role') : f.string('message_type');
    const role = roleText === null ? null : toRole(roleText);
    if (role === null) {
      const why = roleText === null ? 'has no role' : `has the unknown role ${JSON.stringify(roleText)}`;
      top.warnings.add('unknown_role', `A "${listName}" entry ${why}; it was skipped.`);
      return;
    }
    const content = f.string('content');
    if (content === null || !content.trim()) {
      const found = f.present('content') ? (content === null ? undefined : 'its content is empty') : heldKeys(f.raw, ['role', 'message_type', 'ts', 'api']);
      return warnMissingContent(top.warnings, `A Vizier ${roleText} message`, found ? { found } : {});
    }
    const annotations = f.present('annotations') ? f.value('annotations') : undefined;
    const prompt = f.string('system_prompt');
    const message: Message = {
      id: `${listName}-${i}`,
      role,
      timestamp: f.timestamp('ts'),
      model: f.object('api')?.string('model') ?? null,
      usage: null,
      cost: null,
      parts: [{ type: 'text', text: content }],
      agentId: null,
      origin: { fileIndex: 0, line: null, pointer: `/${listName}/${i}` },
    };
    if (annotations !== undefined) message.annotations = annotations;
    else if (prompt) message.annotations = { system_prompt: prompt };
    messages.push(message);
  });
  return messages;
}

function readProvenance(cfg: Fields, key: string, raw: unknown): Provenance | null {
  if (raw === undefined || raw === null) return null;
  const match = Provenance.options.find((p) => typeof raw === 'string' && p.toLowerCase() === raw.toLowerCase());
  if (match) return match;
  cfg.warnings.add(
    'unknown_provenance',
    `Config "${key}" has provenance ${JSON.stringify(raw)}, which is not CLI, session, profile or default; shown without provenance.`,
  );
  return null;
}

/** MVP entries are `{value, provenance}` pairs; the real writer stores a plain nested object. */
function readConfig(top: Fields): ConfigEntry[] {
  const cfg = top.object('config_effective');
  if (!cfg) return [];
  const entries: ConfigEntry[] = [];
  for (const [key, raw] of Object.entries(cfg.raw)) {
    const paired = isRecord(raw) && Object.hasOwn(raw, 'value') && Object.keys(raw).every((k) => k === 'value' || k === 'provenance');
    if (paired) {
      entries.push({ key, value: limitDepth(raw.value, cfg.warnings, cfg.name(key)), provenance: readProvenance(cfg, key, raw.provenance) });
    } else if (isRecord(raw) && Object.keys(raw).length > 0) {
      entries.push(...flattenConfig(new Fields(raw, cfg.name(key), cfg.warnings), null, 1, key));
    } else {
      entries.push({ key, value: limitDepth(raw, cfg.warnings, cfg.name(key)), provenance: null });
    }
  }
  return entries;
}

function readModel(top: Fields): ModelInfo | null {
  const m = top.object('model');
  if (!m) return null;
  const parameters: Record<string, unknown> = {};
  const temperature = m.number('temperature');
  const thinking = m.string('thinking_level');
  const effort = m.string('reasoning_effort');
  if (temperature !== null) parameters.temperature = temperature;
  if (thinking !== null) parameters.thinkingLevel = thinking;
  if (effort !== null) parameters.reasoningEffort = effort;
  return { provider: m.string('provider'), name: m.string('name'), parameters };
}

function readOutcome(top: Fields): Outcome | null {
  const o = top.object('outcome');
  if (!o) return null;
  const status = o.string('status');
  const summary = o.string('summary');
  const commitSha = o.string('commit_sha');
  if (status === null && summary === null && commitSha === null) return null;
  return { status: status ?? 'unknown', summary, commitSha };
}

function artifactKind(path: string): string | null {
  const ext = extname(path).toLowerCase();
  if (ext === '.diff' || ext === '.patch') return 'diff';
  if (ext === '.md') return 'markdown';
  if (ext === '.log') return 'log';
  if (ext === '.json') return 'json';
  return null;
}

function readArtifacts(top: Fields): Artifact[] {
  const out: Artifact[] = [];
  for (const item of top.array('artifacts') ?? []) {
    const path = typeof item === 'string' ? item : isRecord(item) && typeof item.path === 'string' ? item.path : null;
    if (path === null) top.warnings.wrongType('artifacts[]', 'a path', item);
    else out.push({ path, kind: artifactKind(path), resolvedPath: null, size: null });
  }
  return out;
}

/** The real writer wraps prompts in tags (`<instruction>…</instruction>`); a title reads better without them. */
function titleFromPrompt(text: string): string | null {
  const stripped = text
    .split(/\r?\n/)
    .map((line) =>
      line
        .trim()
        .replace(/^<[A-Za-z_][\w-]*>/, '')
        .replace(/<\/[A-Za-z_][\w-]*>$/, ''),
    )
    .join('\n');
  return titleFromText(stripped);
}

const WORKTREE = /^(.*?)[\\/]\.vizier[\\/]tmp-worktrees[\\/][^\\/]+[\\/]*$/;

function checkSchema(top: Fields): string | null {
  const schema = top.string('schema');
  if (schema === null || schema === VIZIER_V1) return schema;
  if (!BODY_FIELDS.some((k) => top.present(k))) {
    const newer = /^vizier\.session\.v(\d+)$/.exec(schema);
    const why = newer && Number(newer[1]) > 1 ? 'is newer than this app understands' : 'is not one this app understands';
    throw new UnreadableError('unsupported_version', `Vizier schema ${JSON.stringify(schema)} ${why}.`);
  }
  top.warnings.add('unknown_version', `Vizier schema ${JSON.stringify(schema)} is not ${VIZIER_V1}; the file was read with the ${VIZIER_V1} rules.`);
  return schema;
}

/** Parses a decoded session.json into the canonical model (pure: artifacts are resolved by `read`). */
export function parseVizierDocument(value: unknown, ctx: DocumentContext): Session {
  if (!isRecord(value)) throw notAnObject(value, 'Vizier session');
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const top = new Fields(value, '', warnings);
  const schema = checkSchema(top);

  const fallbackId = claimsVizier(ctx.path) ? basename(dirname(ctx.path)) : basename(ctx.path, extname(ctx.path));
  const id = top.string('id') ?? fallbackId;
  const repo = top.object('repo');
  const recordedRoot = repo?.string('root') ?? null;
  const branch = repo?.present('current_branch') ? repo.string('current_branch') : (repo?.string('branch') ?? null);
  const headCommit = repo?.present('head_sha') ? repo.string('head_sha') : (repo?.string('head') ?? null);
  const worktree = recordedRoot ? WORKTREE.exec(recordedRoot) : null;
  const projectPath = worktree?.[1] ?? recordedRoot ?? repoOnDisk(ctx.path);

  const prompt = top.present('system_prompt') ? top.object('system_prompt') : null;
  const promptPath = prompt ? prompt.string('path') : top.string('system_prompt_path');
  const promptHash = prompt ? prompt.string('hash') : top.string('system_prompt_hash');

  const extra: Record<string, unknown> = {};
  const workflowType = top.string('workflow_type');
  if (workflowType !== null) extra.workflow_type = workflowType;
  const mode = top.string('mode');
  if (mode !== null) extra.mode = mode;
  if (top.present('agent')) {
    if (isRecord(top.raw.agent)) extra.agent = top.value('agent');
    else top.warnings.wrongType('agent', 'an object', top.raw.agent);
  }
  if (worktree) extra.worktree = recordedRoot;
  const promptKind = prompt?.string('kind') ?? null;
  const promptOrigin = prompt?.string('origin') ?? null;
  if (promptKind !== null) extra.system_prompt_kind = promptKind;
  if (promptOrigin !== null) extra.system_prompt_origin = promptOrigin;

  const messages = readMessages(top);
  const outcome = readOutcome(top);
  const session: Session = {
    key: `vizier:${id}`,
    id,
    format: 'vizier',
    formatVersion: schema ?? 'mvp',
    title: '',
    project: { path: projectPath, name: projectPath ? lastSegment(projectPath) : null, branch, headCommit },
    createdAt: top.timestamp('created_at'),
    updatedAt: top.timestamp('updated_at'),
    closedAt: null,
    status: outcome === null ? 'unknown' : outcome.status === 'open' ? 'open' : 'closed',
    outcome,
    model: readModel(top),
    config: readConfig(top),
    systemPrompt: promptPath !== null || promptHash !== null ? { path: promptPath, hash: promptHash, text: null } : null,
    toolVersion: top.string('tool_version'),
    messages,
    operations: readOperations(top),
    todos: [],
    summary: null,
    artifacts: readArtifacts(top),
    usage: null,
    cost: null,
    parentKey: null,
    childKeys: [],
    sourceFiles: [primarySourceFile(ctx)],
    warnings: [],
    extra,
  };
  const firstUser = messages.find((m) => m.role === 'user')?.parts.find((p) => p.type === 'text');
  session.title =
    (firstUser?.type === 'text' ? titleFromPrompt(firstUser.text) : null) ??
    titleFromText(outcome?.summary) ??
    (workflowType ? `Vizier ${workflowType} session` : 'Vizier session');

  if (top.used.size === 0) throw noUsableField(value, warnings, 'Vizier', KNOWN_FIELDS);
  warnUnknownFields(top, KNOWN_FIELDS);
  session.warnings = warnings.list();
  return session;
}

/** Why an artifact is not read: a file the session names outside its own folder is never taken. */
export const ARTIFACT_OUTSIDE = "is outside this session's own folder (by its path or through a link); it was not read";

type Located = { real: string; size: number; mtimeMs: number } | { refused: string } | null;

/**
 * Finds an artifact in the session's own place on disk (its repository and its folder), never elsewhere: the
 * content's `repo.root` only says where the repository was when the file was written, so an absolute path below
 * it is looked for at the same place below the repository on disk. A named file whose real path (links followed)
 * lies outside those folders is refused, never read; a missing one stays unresolved.
 */
async function locateArtifact(path: string, bases: string[], realBases: string[], recordedRoot: string | null): Promise<Located> {
  const below = recordedRoot && isAbsolute(path) && isAbsolute(recordedRoot) ? relative(recordedRoot, path) : null;
  const mapped = below !== null && below !== '' && !below.startsWith('..') && !isAbsolute(below) ? bases.map((b) => join(b, below)) : [];
  const candidates = isAbsolute(path) ? [path, ...mapped] : bases.map((b) => join(b, path));
  let outside = false;
  for (const candidate of candidates) {
    try {
      const real = await realpath(candidate);
      if (!realBases.some((b) => isWithin(b, real))) {
        outside = true;
        continue;
      }
      const info = await stat(real);
      if (info.isFile()) return { real, size: info.size, mtimeMs: info.mtimeMs };
    } catch {
      // Missing artifacts are normal (pruned logs, another machine's paths): they stay unresolved.
    }
  }
  return outside ? { refused: ARTIFACT_OUTSIDE } : null;
}

async function resolveArtifacts(session: Session, recordedRoot: string | null): Promise<void> {
  const primary = session.sourceFiles[0];
  if (!primary || session.artifacts.length === 0) return;
  // The session's own place: where the reader found it, never a folder its content names.
  const bases = [...new Set([repoOnDisk(primary.path), dirname(primary.path)].filter((b): b is string => b !== null))];
  const realBases = (await Promise.all(bases.map((b) => realpath(b).catch(() => null)))).filter((b): b is string => b !== null);
  const files: SourceFile[] = [];
  const refused = new WarningList();
  for (const artifact of session.artifacts) {
    const found = await locateArtifact(artifact.path, bases, realBases, recordedRoot);
    if (!found) continue;
    if ('refused' in found) {
      artifact.refused = found.refused;
      refused.add('artifact_outside', `The artifact ${JSON.stringify(artifact.path)} ${found.refused}.`);
      continue;
    }
    artifact.resolvedPath = found.real;
    artifact.size = found.size;
    if (!files.some((f) => f.path === found.real)) files.push({ path: found.real, size: found.size, mtimeMs: found.mtimeMs, role: 'artifact' });
  }
  session.sourceFiles.push(...files);
  session.warnings.push(...refused.list());
}

export const vizierReader: SourceReader = {
  format: 'vizier',
  capabilities: { tokens: true, recordedCost: false, subAgents: false, toolResults: true, thinking: true, images: false },
  // Sessions live in each repository's own .vizier/ folder: no machine-wide default; add the repositories.
  defaultRoots: () => [],
  resumeCommand: (s) => `vizier --session ${shellArg(s.id)}`,
  claims: claimsVizier,
  async read(absPath) {
    const { value, ctx } = await readDocument(absPath);
    const session = parseVizierDocument(value, ctx);
    const root = isRecord(value) && isRecord(value.repo) && typeof value.repo.root === 'string' ? value.repo.root : null;
    await resolveArtifacts(session, root);
    return session;
  },
};
