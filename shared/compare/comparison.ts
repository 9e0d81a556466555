// The Comparison of two sessions as it crosses the contract: normalized turns of each side, their alignment and the diffs.
import { z } from 'zod';
import { SourceFormat } from '../session.ts';

/** One run of a word-level diff; `eq` text is in both, `del` only in A, `ins` only in B. */
export const WordSegment = z.object({ op: z.enum(['eq', 'del', 'ins']), text: z.string() });
export type WordSegment = z.infer<typeof WordSegment>;

/** How an aligned pair came out: `inserted` is only in B, `deleted` only in A. */
export const RowStatus = z.enum(['same', 'changed', 'inserted', 'deleted']);
export type RowStatus = z.infer<typeof RowStatus>;

/** ok / error as the result said; none when the call never got a result. */
export const ToolStatus = z.enum(['ok', 'error', 'none']);
export type ToolStatus = z.infer<typeof ToolStatus>;

export const TextStep = z.object({
  kind: z.literal('text'),
  text: z.string(),
  /** The text was longer than the comparison carries; the diff covers the part shown. */
  truncated: z.boolean(),
});
export const ToolStep = z.object({
  kind: z.literal('tool'),
  name: z.string(),
  /** What the tool does whatever the format calls it: shell, read, edit, write, search, web, todo, agent, or the name. */
  family: z.string(),
  /** Its main argument in a comparable form: the command, the path (relative to the project), the pattern. */
  target: z.string().nullable(),
  /** The arguments as compact JSON (cut to a few hundred characters). */
  args: z.string(),
  status: ToolStatus,
  /** The start of the result, for a glance; results do not count as differences. */
  result: z.string().nullable(),
});
export const EventStep = z.object({ kind: z.literal('event'), label: z.string() });
export const Step = z.discriminatedUnion('kind', [TextStep, ToolStep, EventStep]);
export type Step = z.infer<typeof Step>;
export type TextStep = z.infer<typeof TextStep>;
export type ToolStep = z.infer<typeof ToolStep>;

/** A user prompt and everything up to the next one; turn 0 may have no prompt (what came before the first). */
export const Turn = z.object({
  prompt: z.string().nullable(),
  promptTruncated: z.boolean(),
  steps: z.array(Step),
  /** Index of the turn's first message in the session, and how many messages it spans (sub-agents' included). */
  messageStart: z.number().int().nonnegative(),
  messageCount: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  toolErrors: z.number().int().nonnegative(),
  tokens: z.number().nonnegative(),
  costUsd: z.number().nullable(),
  startedAt: z.string().nullable(),
  durationMs: z.number().nonnegative().nullable(),
});
export type Turn = z.infer<typeof Turn>;

/** What differs inside a changed pair of steps (result text never counts). */
export const StepAspect = z.enum(['text', 'kind', 'tool', 'args', 'status']);
export type StepAspect = z.infer<typeof StepAspect>;

export const StepRow = z.object({
  status: RowStatus,
  a: z.number().int().nonnegative().nullable(),
  b: z.number().int().nonnegative().nullable(),
  /** An inserted/deleted step whose twin sits elsewhere in the same turn (reordered tool calls). */
  moved: z.boolean(),
  aspects: z.array(StepAspect),
  /** Word diff of the text (text steps) or of the arguments (tool steps) when they changed. */
  diff: z.array(WordSegment).nullable(),
});
export type StepRow = z.infer<typeof StepRow>;

export const TurnRow = z.object({
  status: RowStatus,
  a: z.number().int().nonnegative().nullable(),
  b: z.number().int().nonnegative().nullable(),
  /** 0..1: how alike the two turns' prompts are (1 for identical, 0 for one-sided rows). */
  similarity: z.number().min(0).max(1),
  /** Word diff of the prompts when they differ. */
  promptDiff: z.array(WordSegment).nullable(),
  /** The aligned steps of a changed pair; empty for same rows (steps pair up one to one) and one-sided rows. */
  steps: z.array(StepRow),
});
export type TurnRow = z.infer<typeof TurnRow>;

/** How a header value is measured, so a delta can be recomputed when the sides are swapped. */
export const DeltaUnit = z.enum(['count', 'tokens', 'usd', 'ms', 'time']);
export type DeltaUnit = z.infer<typeof DeltaUnit>;

export const HeaderRow = z.object({
  group: z.enum(['session', 'model', 'config', 'time', 'counts', 'tokens', 'cost']),
  label: z.string(),
  /** Display values; null when the side has none. */
  a: z.string().nullable(),
  b: z.string().nullable(),
  same: z.boolean(),
  /** e.g. "+1,240 tokens, +12%", "2.1× slower"; null when not numeric or unknown on one side. */
  delta: z.string().nullable(),
  unit: DeltaUnit.nullable(),
  /** The numbers behind a/b (epoch ms for times) when the row is numeric. */
  av: z.number().nullable(),
  bv: z.number().nullable(),
});
export type HeaderRow = z.infer<typeof HeaderRow>;

/** A file a session touched: A/M/D/R from version-control facts and edit tools, `read` for files only read. */
export const FileRow = z.object({
  path: z.string(),
  a: z.array(z.string()),
  b: z.array(z.string()),
  status: z.enum(['same', 'changed', 'only-a', 'only-b']),
});
export type FileRow = z.infer<typeof FileRow>;

export const OpEntry = z.object({
  type: z.string(),
  name: z.string().nullable(),
  status: z.string().nullable(),
  /** Milliseconds from the session's start, when both are known. */
  offsetMs: z.number().nullable(),
  latencyMs: z.number().nullable(),
  /** e.g. "A1 M2 D1 R1" from the operation's staged VCS facts. */
  vcs: z.string().nullable(),
  depth: z.number().int().nonnegative(),
});
export type OpEntry = z.infer<typeof OpEntry>;

export const AlignRow = z.object({
  status: RowStatus,
  a: z.number().int().nonnegative().nullable(),
  b: z.number().int().nonnegative().nullable(),
});
export type AlignRow = z.infer<typeof AlignRow>;

export const ComparedSide = z.object({
  key: z.string(),
  id: z.string(),
  format: SourceFormat,
  title: z.string(),
  messageCount: z.number().int().nonnegative(),
  turns: z.array(Turn),
  operations: z.array(OpEntry),
  /** Cumulative tokens after each turn (the chart's line), and cumulative cost when any turn has one. */
  cumulativeTokens: z.array(z.number().nonnegative()),
  cumulativeCostUsd: z.array(z.number()).nullable(),
});
export type ComparedSide = z.infer<typeof ComparedSide>;

export const Comparison = z.object({
  a: ComparedSide,
  b: ComparedSide,
  header: z.array(HeaderRow),
  rows: z.array(TurnRow),
  operationRows: z.array(AlignRow),
  files: z.array(FileRow),
  stats: z.object({
    same: z.number().int().nonnegative(),
    changed: z.number().int().nonnegative(),
    inserted: z.number().int().nonnegative(),
    deleted: z.number().int().nonnegative(),
  }),
  /** Longest text and result a step carries; longer ones are cut (and marked truncated). */
  limits: z.object({ textChars: z.number().int().positive(), resultChars: z.number().int().positive() }),
  /** How long the worker took to align (normalizing included), for the status line. */
  elapsedMs: z.number().nonnegative(),
});
export type Comparison = z.infer<typeof Comparison>;
