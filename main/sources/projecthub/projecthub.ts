// Reads ProjectHub vault sessions (<project>/vault/sessions/<date>_<id>.md) merged with their transcript and index row.
import { basename, dirname, join } from 'node:path';
import type { LifecycleStatus, Session, SourceFile, Warning } from '../../../shared/session.ts';
import { lastSegment, primarySourceFile, titleFromText, WarningList, type DocumentContext } from '../coerce.ts';
import { readTextFile } from '../decode.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { textOf } from '../claude-code/claude-code-blocks.ts';
import { recentlyActive } from '../../../shared/activity.ts';
import { isPrompt, mostUsedModel, priceMessages } from '../claude-code/claude-code-facts.ts';
import { readConversation, type Conversation } from '../claude-code/claude-code-records.ts';
import { readIndexRow, type IndexRow } from './projecthub-index.ts';
import { parseVaultMarkdown, type VaultMarkdown } from './projecthub-markdown.ts';
import { UnreadableError, type SourceReader } from '../types.ts';
import { statPath } from '../file-bytes.ts';
import { companionInside } from '../companion.ts';
import { cannotRead } from '../read-failure.ts';

const SESSION_FILE = /^(\d{4}-\d{2}-\d{2})_(.+)\.md$/;

/** `vault/sessions/<YYYY-MM-DD>_<id>.md`; other notes in the vault are not sessions. */
export function claimsProjectHub(absPath: string): boolean {
  const sessions = dirname(absPath);
  return SESSION_FILE.test(basename(absPath)) && basename(sessions) === 'sessions' && basename(dirname(sessions)) === 'vault';
}

/** Files in a vault's `.projecthub/` folder (transcript backups, the index) belong to its sessions; none is one. */
export function projectHubCompanion(absPath: string): boolean {
  return absPath.split(/[\\/]+/).includes('.projecthub');
}

export interface ProjectHubContext extends DocumentContext {
  now: number;
  /** The session's row in `.projecthub/index.db`; null when there is no database. */
  index: { row: IndexRow | null; file: SourceFile } | null;
  /** The Claude Code transcript `session capture` copied to `.projecthub/transcripts/<id>.jsonl`. */
  transcript: { records: JsonLine[]; file: SourceFile } | null;
}

/** The session id, before the companions can be found: front matter, then heading, then file name. */
export function projectHubId(md: VaultMarkdown, path: string): string {
  const fromFile = SESSION_FILE.exec(basename(path))?.[2] ?? basename(path, '.md');
  const fm = md.frontMatter?.get('session_id');
  return (fm !== undefined && String(fm).trim() !== '' ? String(fm) : null) ?? md.headingId ?? fromFile;
}

function epochIso(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Front matter value of the expected kind; the other kind is reported and skipped. */
function fmValue(md: VaultMarkdown, key: string, kind: 'string' | 'number', warnings: WarningList): string | number | null {
  const value = md.frontMatter?.get(key);
  if (value === undefined || value === '') return null;
  if (typeof value === kind) return value;
  if (kind === 'string') return String(value);
  warnings.wrongType(`front matter ${key}`, 'a whole number', value);
  return null;
}

/** The Markdown value wins (it is the claimed file); a differing index.db value is named in a warning. */
function pick<T extends string | number>(key: string, fromMd: T | null, fromIndex: T | null | undefined, warnings: WarningList): T | null {
  if (fromMd !== null && fromIndex !== null && fromIndex !== undefined && fromMd !== fromIndex) {
    warnings.add(
      'sources_disagree',
      `The Markdown file and index.db disagree on ${key} (${JSON.stringify(fromMd)} vs ${JSON.stringify(fromIndex)}); the Markdown value is shown.`,
    );
  }
  return fromMd ?? fromIndex ?? null;
}

function lifecycle(status: string | null, updatedAt: string | null, ctx: { mtimeMs: number; now: number }, warnings: WarningList): LifecycleStatus {
  if (status === 'closed' || status === 'compacted') return status;
  // ProjectHub never closes a session it lost track of, so "active" only means running while the file and its save time move.
  if (status === 'active') return recentlyActive(ctx.now, ctx.mtimeMs, updatedAt) ? 'active' : 'open';
  if (status !== null) warnings.add('unknown_status', `Status ${JSON.stringify(status)} is not active, compacted or closed.`);
  return 'unknown';
}

function firstRollingPrompt(rolling: string | null): string | null {
  const m = rolling ? /^\*\*User\*\*:\s*(.+)$/m.exec(rolling) : null;
  return m?.[1] ?? null;
}

function readTranscriptConversation(ctx: ProjectHubContext, warnings: WarningList): Conversation | null {
  if (!ctx.transcript) return null;
  const own = new WarningList();
  const conv = readConversation(ctx.transcript.records, own, { agentFile: false, childByToolUseId: new Map() });
  for (const w of own.list()) for (let i = 0; i < w.count; i++) warnings.add(w.code, `In the transcript: ${w.message}`);
  return conv;
}

/** Merges the Markdown file with its transcript and index row into one session (pure; tests call it directly). */
export function parseProjectHub(md: VaultMarkdown, ctx: ProjectHubContext): Session {
  if (md.frontMatter === null && md.headingId === null) {
    throw new UnreadableError('wrong_shape', 'Not a ProjectHub session: the file has neither front matter ("---" block) nor a "# Session:" heading.');
  }
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const id = projectHubId(md, ctx.path);
  const fileId = SESSION_FILE.exec(basename(ctx.path))?.[2];
  if (fileId !== undefined && fileId !== id) warnings.add('sources_disagree', `The file name says session ${fileId} but the file holds session ${id}.`);
  const row = ctx.index?.row ?? null;
  const conv = readTranscriptConversation(ctx, warnings);

  const str = (k: string) => fmValue(md, k, 'string', warnings) as string | null;
  const num = (k: string) => fmValue(md, k, 'number', warnings) as number | null;
  const projectPath = pick('project_dir', str('project_dir'), row?.projectDir, warnings) ?? conv?.cwds[0] ?? null;
  const startedAt = pick('started_at', num('started_at'), row?.startedAt, warnings);
  const lastSavedAt = pick('last_saved_at', num('last_saved_at'), row?.lastSavedAt, warnings);
  const turnCount = pick('turn_count', num('turn_count'), row?.turnCount, warnings);
  const status = pick('status', str('status'), row?.status, warnings);
  const prompts = conv?.messages.filter(isPrompt) ?? [];
  if (conv && turnCount !== null && prompts.length !== turnCount) {
    warnings.add('sources_disagree', `The transcript holds ${prompts.length} prompts but turn_count says ${turnCount}.`);
  }

  const rollingSummary = row?.rollingSummary ?? md.rollingSummary;
  const extra: Record<string, unknown> = {};
  if (status !== null) extra.status = status;
  if (turnCount !== null) extra.turnCount = turnCount;
  if (row?.estimatedTokens != null) extra.estimatedTokens = row.estimatedTokens;
  if (rollingSummary) extra.rollingSummary = rollingSummary;
  extra.decisions = row?.decisions ?? md.decisions ?? [];
  extra.searchFootprint = row?.searchFootprint ?? md.searchFootprint ?? [];
  if (conv?.version) extra.claudeCodeVersion = conv.version;

  const shortId = /^[0-9a-f]{8}-/i.test(id) ? id.slice(0, 8) : id;
  const title =
    titleFromText(prompts[0] ? textOf(prompts[0].parts) : null) ?? titleFromText(firstRollingPrompt(rollingSummary)) ?? `ProjectHub session ${shortId}`;
  const messages = conv?.messages ?? [];
  const sourceFiles = [primarySourceFile(ctx)];
  if (ctx.transcript) sourceFiles.push(ctx.transcript.file);
  if (ctx.index) sourceFiles.push(ctx.index.file);
  const cost = priceMessages(messages, warnings);
  const updatedAt = epochIso(lastSavedAt) ?? conv?.updatedAt ?? null;
  return {
    key: `projecthub:${id}`,
    id,
    format: 'projecthub',
    formatVersion: null,
    title,
    project: { path: projectPath, name: projectPath ? lastSegment(projectPath) : null, branch: conv?.branch ?? null, headCommit: null },
    createdAt: epochIso(startedAt) ?? conv?.createdAt ?? null,
    updatedAt,
    closedAt: status === 'closed' ? epochIso(lastSavedAt) : null,
    status: lifecycle(status, updatedAt, ctx, warnings),
    outcome: null,
    model: conv ? mostUsedModel(conv) : null,
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages,
    operations: conv?.operations ?? [],
    todos: conv?.todos ?? [],
    summary: row?.summary ?? md.summary,
    artifacts: [],
    usage: conv?.usage ?? null,
    cost,
    parentKey: null,
    childKeys: [],
    sourceFiles,
    warnings: warnings.list(),
    extra,
  };
}

async function readTranscript(path: string, warnings: WarningList): Promise<ProjectHubContext['transcript']> {
  let info;
  try {
    info = await statPath(path);
  } catch {
    return null; // `session capture` was never run for this session
  }
  try {
    const { records, warnings: lineWarnings } = await readJsonLines(path);
    for (const w of lineWarnings) for (let i = 0; i < w.count; i++) warnings.add(w.code, `In the transcript: ${w.message}`);
    return { records, file: { path, size: info.size, mtimeMs: info.mtimeMs, role: 'transcript' } };
  } catch (err) {
    warnings.add('transcript_unreadable', `The transcript ${basename(path)} cannot be read: ${(err as Error).message}`);
    return null;
  }
}

/** Reads the Markdown file, then the transcript and index row it names. */
export async function readProjectHubFile(absPath: string, now = Date.now()): Promise<Session> {
  let info;
  try {
    info = await statPath(absPath);
  } catch (err) {
    throw cannotRead(err);
  }
  const { text, warnings: decoding } = await readTextFile(absPath);
  if (text.trim() === '') throw new UnreadableError('empty_file', text.length === 0 ? 'File is empty (0 bytes).' : 'File contains only whitespace.');
  const warnings = new WarningList();
  warnings.addAll(decoding);
  const md = parseVaultMarkdown(text, warnings);
  const id = projectHubId(md, absPath);
  // Companions count only when their real path stays in this ProjectHub vault (a linked .projecthub is not its own).
  const own = dirname(dirname(absPath));
  const hub = join(own, '.projecthub');
  const dbPath = join(hub, 'index.db');
  const index = (await companionInside(dbPath, own)) ? await readIndexRow(dbPath, id, warnings) : null;
  // The id comes from the file's text: one that could name a path outside transcripts/ is not looked up.
  const safeId = /^[\w-][\w.-]*$/.test(id);
  const transcriptPath = join(hub, 'transcripts', `${id}.jsonl`);
  const transcript = safeId && (await companionInside(transcriptPath, own)) ? await readTranscript(transcriptPath, warnings) : null;
  const companions: Warning[] = warnings.list();
  return parseProjectHub(md, { path: absPath, size: info.size, mtimeMs: info.mtimeMs, warnings: companions, now, index, transcript });
}

export const projectHubReader: SourceReader = {
  format: 'projecthub',
  capabilities: { tokens: true, recordedCost: false, subAgents: false, toolResults: true, thinking: false, images: false },
  // A ProjectHub vault is wherever its user keeps it: no default; add the vault folder.
  defaultRoots: () => [],
  resumeCommand: () => null,
  claims: claimsProjectHub,
  companion: projectHubCompanion,
  read: (absPath) => readProjectHubFile(absPath),
};
