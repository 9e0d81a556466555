// The canonical session model: every reader turns its on-disk format into these zod-described shapes.
import { z } from 'zod';
import { SOURCE_FORMATS } from './source-formats.ts';

/** Every on-disk format the app reads (`vault` is the app's own store); the list lives in source-formats.ts. */
export const SourceFormat = z.enum(SOURCE_FORMATS);
export type SourceFormat = z.infer<typeof SourceFormat>;

/** Any JSON value; used where a format carries free-form payloads we keep verbatim. */
export const JsonValue: z.ZodType<unknown> = z.unknown();

/** Where one value of the effective configuration came from (seed 000). */
export const Provenance = z.enum(['CLI', 'session', 'profile', 'default']);
export type Provenance = z.infer<typeof Provenance>;

export const ConfigEntry = z.object({
  key: z.string(),
  value: JsonValue,
  /** null when the format records the value but not where it came from. */
  provenance: Provenance.nullable(),
});
export type ConfigEntry = z.infer<typeof ConfigEntry>;

export const TokenUsage = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  reasoning: z.number().nonnegative(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

export const Cost = z.object({
  usd: z.number(),
  /** true when computed from a pricing table instead of recorded by the tool. */
  estimated: z.boolean(),
  /** On a total: calls with tokens but no known price, left out of `usd` (then a lower bound, shown as partial). */
  unpricedMessages: z.number().int().positive().optional(),
});
export type Cost = z.infer<typeof Cost>;

/** Points back into the source so the raw record behind a message or operation stays reachable. */
export const Origin = z.object({
  fileIndex: z.number().int().nonnegative(),
  /** 1-based line for line-oriented formats (JSONL). */
  line: z.number().int().positive().nullable(),
  /** RFC 6901 JSON pointer for document formats, e.g. "/chat/3". */
  pointer: z.string().nullable(),
});
export type Origin = z.infer<typeof Origin>;

export const TextPart = z.object({ type: z.literal('text'), text: z.string() });
export const ThinkingPart = z.object({
  type: z.literal('thinking'),
  text: z.string(),
  redacted: z.boolean(),
});
export const ToolCallPart = z.object({
  type: z.literal('tool_call'),
  callId: z.string().nullable(),
  name: z.string(),
  input: JsonValue,
});
export const ToolResultPart = z.object({
  type: z.literal('tool_result'),
  callId: z.string().nullable(),
  output: z.string(),
  isError: z.boolean().nullable(),
});
export const ImagePart = z.object({
  type: z.literal('image'),
  mediaType: z.string().nullable(),
  /** base64 data when the format embeds the image. */
  data: z.string().nullable(),
  url: z.string().nullable(),
});
export const CompactionPart = z.object({
  type: z.literal('compaction'),
  /** The summary the tool carried across the boundary, when recorded. */
  summary: z.string().nullable(),
  trigger: z.string().nullable(),
  tokensBefore: z.number().nullable(),
});

export const MessagePart = z.discriminatedUnion('type', [TextPart, ThinkingPart, ToolCallPart, ToolResultPart, ImagePart, CompactionPart]);
export type MessagePart = z.infer<typeof MessagePart>;

export const MessageRole = z.enum(['user', 'assistant', 'system', 'tool']);
export type MessageRole = z.infer<typeof MessageRole>;

export const Message = z.object({
  id: z.string(),
  role: MessageRole,
  timestamp: z.string().nullable(),
  /** Model that produced this message, when it differs per message. */
  model: z.string().nullable(),
  usage: TokenUsage.nullable(),
  cost: Cost.nullable(),
  parts: z.array(MessagePart),
  /** Format-specific extras with no canonical place (e.g. Vizier annotations). */
  annotations: JsonValue.optional(),
  /** Set when the message belongs to a sub-agent running inside this session. */
  agentId: z.string().nullable(),
  origin: Origin.nullable(),
});
export type Message = z.infer<typeof Message>;

/** Version-control facts of an operation (seed 000: staged A/M/D/R, applied/restored sha). */
export const VcsFacts = z.object({
  staged: z.object({
    A: z.array(z.string()),
    M: z.array(z.string()),
    D: z.array(z.string()),
    R: z.array(z.object({ from: z.string().nullable(), to: z.string() })),
  }),
  appliedSha: z.string().nullable(),
  restoredSha: z.string().nullable(),
});
export type VcsFacts = z.infer<typeof VcsFacts>;

export const Operation = z.object({
  id: z.string(),
  /** Format's own operation type: proposal, gate_accept, cicd_gate, llm, tool, ... */
  type: z.string(),
  /** Human label, e.g. a tool name. */
  name: z.string().nullable(),
  timestamp: z.string().nullable(),
  endedAt: z.string().nullable(),
  status: z.string().nullable(),
  latencyMs: z.number().nullable(),
  detail: JsonValue,
  vcs: VcsFacts.nullable(),
  usage: TokenUsage.nullable(),
  cost: Cost.nullable(),
  /** Tree structure for formats with nested operations (ai-agent turns/ops). */
  parentId: z.string().nullable(),
  /** Sub-agent session started by this operation. */
  childSessionKey: z.string().nullable(),
  origin: Origin.nullable(),
});
export type Operation = z.infer<typeof Operation>;

export const Todo = z.object({
  content: z.string(),
  /** pending | in_progress | completed, or the format's own word. */
  status: z.string(),
  activeForm: z.string().nullable(),
});
export type Todo = z.infer<typeof Todo>;

export const SessionSummaryText = z.object({
  overview: z.string().nullable(),
  decisions: z.array(z.string()),
  outcomes: z.array(z.string()),
  openItems: z.array(z.string()),
  tags: z.array(z.string()),
});
export type SessionSummaryText = z.infer<typeof SessionSummaryText>;

export const Artifact = z.object({
  path: z.string(),
  kind: z.string().nullable(),
  /** Absolute path when the artifact was found beside the session. */
  resolvedPath: z.string().nullable(),
  size: z.number().nullable(),
  /** Why the file the session names was not read: it lies outside the session's own folder (by its path or a link). */
  refused: z.string().optional(),
});
export type Artifact = z.infer<typeof Artifact>;

export const SourceFile = z.object({
  path: z.string(),
  size: z.number().nonnegative(),
  mtimeMs: z.number(),
  role: z.enum(['primary', 'transcript', 'index', 'meta', 'payload', 'artifact']),
});
export type SourceFile = z.infer<typeof SourceFile>;

export const Warning = z.object({
  /** Stable machine code, e.g. unknown_field, unknown_record_type, torn_line, invalid_utf8, bom. */
  code: z.string(),
  message: z.string(),
  count: z.number().int().positive(),
});
export type Warning = z.infer<typeof Warning>;

/** Lifecycle of the session as the tool sees it. */
export const LifecycleStatus = z.enum(['active', 'open', 'compacted', 'closed', 'unknown']);
export type LifecycleStatus = z.infer<typeof LifecycleStatus>;

export const Outcome = z.object({
  /** open | accepted | rejected | aborted | completed | failed ... as the format says it. */
  status: z.string(),
  summary: z.string().nullable(),
  commitSha: z.string().nullable(),
});
export type Outcome = z.infer<typeof Outcome>;

export const ModelInfo = z.object({
  provider: z.string().nullable(),
  name: z.string().nullable(),
  /** temperature, thinkingLevel, reasoningEffort, maxTokens, ... */
  parameters: z.record(z.string(), JsonValue),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

export const Project = z.object({
  path: z.string().nullable(),
  name: z.string().nullable(),
  branch: z.string().nullable(),
  headCommit: z.string().nullable(),
});
export type Project = z.infer<typeof Project>;

export const Session = z.object({
  /** Unique across every source: `<format>:<native id>` (a path hash is appended on collision). */
  key: z.string(),
  id: z.string(),
  format: SourceFormat,
  formatVersion: z.string().nullable(),
  title: z.string(),
  project: Project,
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  status: LifecycleStatus,
  outcome: Outcome.nullable(),
  model: ModelInfo.nullable(),
  config: z.array(ConfigEntry),
  systemPrompt: z.object({ path: z.string().nullable(), hash: z.string().nullable(), text: z.string().nullable() }).nullable(),
  toolVersion: z.string().nullable(),
  messages: z.array(Message),
  operations: z.array(Operation),
  todos: z.array(Todo),
  summary: SessionSummaryText.nullable(),
  artifacts: z.array(Artifact),
  usage: TokenUsage.nullable(),
  cost: Cost.nullable(),
  parentKey: z.string().nullable(),
  childKeys: z.array(z.string()),
  sourceFiles: z.array(SourceFile),
  warnings: z.array(Warning),
  /** Format-specific facts worth showing that have no canonical field (workflow_type, mode, language ...). */
  extra: z.record(z.string(), JsonValue),
});
export type Session = z.infer<typeof Session>;

/** Why an entry could not be read; shown in the list instead of dropping the file. */
export const Unreadable = z.object({
  code: z.enum(['io_error', 'empty_file', 'invalid_json', 'invalid_encoding', 'wrong_shape', 'unsupported_version', 'too_large']),
  message: z.string(),
});
export type Unreadable = z.infer<typeof Unreadable>;

/** The lighter shape the list shows. */
export const SessionSummary = z.object({
  key: z.string(),
  id: z.string(),
  format: SourceFormat,
  title: z.string(),
  projectPath: z.string().nullable(),
  projectName: z.string().nullable(),
  branch: z.string().nullable(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  status: LifecycleStatus,
  outcomeStatus: z.string().nullable(),
  outcomeSummary: z.string().nullable(),
  model: z.string().nullable(),
  messageCount: z.number().int().nonnegative(),
  toolCallCount: z.number().int().nonnegative(),
  totalTokens: z.number().nonnegative().nullable(),
  costUsd: z.number().nullable(),
  parentKey: z.string().nullable(),
  childCount: z.number().int().nonnegative(),
  warningCount: z.number().int().nonnegative(),
  /** A copy is kept in the vault (safe from tools that delete old sessions). */
  kept: z.boolean(),
  /** The live source is gone; what is listed is the vault's copy. */
  sourceGone: z.boolean(),
  starred: z.boolean(),
  tags: z.array(z.string()),
  hasNote: z.boolean(),
  primaryPath: z.string(),
  size: z.number().nonnegative(),
  mtimeMs: z.number(),
  unreadable: Unreadable.nullable(),
  /** A team store's session (`session-vault serve --team`): the machine it was pushed from; absent for this machine's own. */
  machine: z.string().optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;
