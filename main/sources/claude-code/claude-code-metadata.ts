// Claude Code's records without a conversation turn: titles, modes, links, and the types kept only as counts.
import type { Fields } from '../coerce.ts';

/** What the metadata records of one file say about the session; the last record of a kind wins. */
export interface SessionMetadata {
  customTitle: string | null;
  aiTitle: string | null;
  /**
   * `summary` records (older CLIs wrote one per compacted or resumed conversation), each naming the last message
   * of the conversation it sums up (`leafUuid`): a resumed file also carries summaries of the sessions before it.
   */
  summaries: Array<{ text: string; leafUuid: string | null }>;
  lastPrompt: string | null;
  permissionMode: string | null;
  mode: string | null;
  agentName: string | null;
  pullRequests: Array<{ number: number | null; url: string | null; repository: string | null }>;
  /** The hooks the session names (hook_progress records, hook attachments, stop-hook summaries), each distinct hook once. */
  hooks: NamedHook[];
  /** Known record types that carry nothing shown in the transcript, counted per type. */
  ignored: Record<string, number>;
}

/**
 * One hook as its records name it: the event it answers, its name and the command it runs. Listed once, not counted:
 * one run of a hook writes both a progress record and an attachment.
 */
export interface NamedHook {
  hookEvent: string | null;
  hookName: string | null;
  command: string | null;
}

export function emptyMetadata(): SessionMetadata {
  return {
    customTitle: null,
    aiTitle: null,
    summaries: [],
    lastPrompt: null,
    permissionMode: null,
    mode: null,
    agentName: null,
    pullRequests: [],
    hooks: [],
    ignored: {},
  };
}

/**
 * Record types Claude Code writes that hold editor state, hook and queue bookkeeping, or links the
 * transcript does not need; the list follows the MANIFEST and the record types in the copied fixtures.
 */
const IGNORED_TYPES = new Set([
  'file-history-snapshot',
  'queue-operation',
  'frame-link',
  'worktree-state',
  'relocated',
  'started',
  'result',
  'bridge-session',
  'atis-latch',
]);

export function countIgnored(meta: SessionMetadata, label: string): void {
  meta.ignored[label] = (meta.ignored[label] ?? 0) + 1;
}

/**
 * A hook's progress record names the hook and the command it runs (what the user configured, worth finding); the
 * other progress records repeat what the transcript or a sub-agent's file holds (a command's output so far).
 */
function noteHook(record: Fields, meta: SessionMetadata): void {
  const data = record.object('data');
  if (data?.string('type') !== 'hook_progress') return;
  addHook(meta, { hookEvent: data.string('hookEvent'), hookName: data.string('hookName'), command: data.string('command') });
}

/** Lists a hook the first time a record names it. */
export function addHook(meta: SessionMetadata, hook: NamedHook): void {
  if (hook.hookEvent === null && hook.hookName === null && hook.command === null) return;
  const same = meta.hooks.some((h) => h.hookEvent === hook.hookEvent && h.hookName === hook.hookName && h.command === hook.command);
  if (!same) meta.hooks.push({ ...hook });
}

/** Applies one metadata record; false when the type is not a metadata type this reader knows. */
export function readMetadataRecord(type: string, record: Fields, meta: SessionMetadata): boolean {
  switch (type) {
    case 'custom-title':
      meta.customTitle = record.string('customTitle') ?? meta.customTitle;
      return true;
    case 'ai-title':
      meta.aiTitle = record.string('aiTitle') ?? meta.aiTitle;
      return true;
    case 'summary': {
      const summary = record.string('summary');
      if (summary !== null) meta.summaries.push({ text: summary, leafUuid: record.string('leafUuid') });
      return true;
    }
    case 'last-prompt':
      meta.lastPrompt = record.string('lastPrompt') ?? meta.lastPrompt;
      return true;
    case 'permission-mode':
      meta.permissionMode = record.string('permissionMode') ?? meta.permissionMode;
      return true;
    case 'mode':
      meta.mode = record.string('mode') ?? meta.mode;
      return true;
    case 'agent-name':
      meta.agentName = record.string('agentName') ?? meta.agentName;
      return true;
    case 'pr-link':
      meta.pullRequests.push({ number: record.number('prNumber'), url: record.string('prUrl'), repository: record.string('prRepository') });
      return true;
    case 'progress':
      noteHook(record, meta);
      countIgnored(meta, type);
      return true;
    default:
      if (!IGNORED_TYPES.has(type)) return false;
      countIgnored(meta, type);
      return true;
  }
}

/** The metadata worth showing, for `session.extra` (empty values left out). */
export function metadataExtra(meta: SessionMetadata): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  if (meta.customTitle !== null) extra.customTitle = meta.customTitle;
  if (meta.aiTitle !== null) extra.aiTitle = meta.aiTitle;
  if (meta.summaries.length) extra.summaries = meta.summaries.map((s) => s.text);
  if (meta.lastPrompt !== null) extra.lastPrompt = meta.lastPrompt;
  if (meta.permissionMode !== null) extra.permissionMode = meta.permissionMode;
  if (meta.mode !== null) extra.mode = meta.mode;
  if (meta.agentName !== null) extra.agentName = meta.agentName;
  if (meta.pullRequests.length) extra.pullRequests = meta.pullRequests;
  if (meta.hooks.length) extra.hooks = meta.hooks;
  if (Object.keys(meta.ignored).length) extra.ignoredRecords = meta.ignored;
  return extra;
}

/**
 * The summary that names this session, as Claude Code picks it: the latest `summary` whose leaf is one of this
 * file's own messages. A summary whose leaf lies in another file sums up that other session (copied in on resume).
 */
export function ownSummary(meta: SessionMetadata, messageIds: ReadonlySet<string>): string | null {
  const own = meta.summaries.filter((s) => s.leafUuid !== null && messageIds.has(s.leafUuid));
  return own.at(-1)?.text ?? null;
}
