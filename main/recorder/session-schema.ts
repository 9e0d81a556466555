// The vault's session.json (seed 000's MVP schema) as a zod model: the writer's output and `validate`'s rules.
import { z } from 'zod';

/** session.json stays below this so it loads quickly (seed 000); bigger payloads go to artifact files. */
export const MAX_SESSION_FILE_BYTES = 10 * 1024 * 1024;

export const SessionId = z.uuid({ version: 'v7', error: 'must be a UUID version 7 (e.g. 0195c2d4-7a10-7c3e-9f21-5b8e0d4a6c13)' });

/** ISO-8601 with a time zone (`Z` or ±HH:MM); any number of fractional digits. */
export const Timestamp = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date and time with a time zone, e.g. 2026-02-03T10:15:00.250+02:00' });

const Sha = z.string().regex(/^[0-9a-f]{7,64}$/, 'must be a hexadecimal commit id (7 to 64 characters)');

export const ProvenanceName = z.enum(['CLI', 'session', 'profile', 'default']);
export type ProvenanceName = z.infer<typeof ProvenanceName>;

export const ConfigValue = z.strictObject({
  value: z.unknown(),
  provenance: ProvenanceName,
});
export type ConfigValue = z.infer<typeof ConfigValue>;

export const Repo = z.strictObject({
  root: z.string().min(1).nullable(),
  current_branch: z.string().min(1).nullable(),
  head_sha: Sha.nullable(),
});
export type Repo = z.infer<typeof Repo>;

export const Model = z.strictObject({
  provider: z.string().min(1).nullable(),
  name: z.string().min(1).nullable(),
  temperature: z.number().min(0).max(2).nullable(),
  thinking_level: z.string().min(1).nullable(),
});
export type Model = z.infer<typeof Model>;

export const ChatRole = z.enum(['user', 'assistant', 'system', 'tool']);
export type ChatRole = z.infer<typeof ChatRole>;

export const ChatMessage = z.strictObject({
  role: ChatRole,
  content: z.string(),
  ts: Timestamp,
  /** Free-form extras such as tool_calls and diffs_refs (seed 000). */
  annotations: z.record(z.string(), z.unknown()).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const OperationType = z.enum(['proposal', 'gate_open', 'gate_accept', 'gate_reject', 'apply_diff', 'revert', 'test_run', 'config_change']);
export type OperationType = z.infer<typeof OperationType>;

export const Staged = z.strictObject({
  A: z.array(z.string()),
  M: z.array(z.string()),
  D: z.array(z.string()),
  /** Renames as [old path, new path]. */
  R: z.array(z.tuple([z.string(), z.string()])),
});
export type Staged = z.infer<typeof Staged>;

export const Vcs = z.strictObject({
  staged: Staged,
  applied_sha: Sha.optional(),
  restored_sha: Sha.optional(),
});
export type Vcs = z.infer<typeof Vcs>;

export const Operation = z.strictObject({
  type: OperationType,
  detail: z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'must be a string or an object' }),
  vcs: Vcs,
  ts: Timestamp,
});
export type Operation = z.infer<typeof Operation>;

export const OutcomeStatus = z.enum(['open', 'accepted', 'rejected', 'aborted']);
export type OutcomeStatus = z.infer<typeof OutcomeStatus>;

export const Outcome = z.strictObject({
  status: OutcomeStatus,
  summary: z.string().optional(),
  commit_sha: Sha.optional(),
});
export type Outcome = z.infer<typeof Outcome>;

export const SessionDocument = z
  .strictObject({
    id: SessionId,
    created_at: Timestamp,
    updated_at: Timestamp,
    tool_version: z.string().min(1),
    /** Seed 000's status update: the kind of workflow (e.g. chat) and the mode it ran in. */
    workflow_type: z.string().min(1),
    mode: z.string().min(1),
    repo: Repo,
    config_effective: z.record(z.string(), ConfigValue),
    system_prompt_path: z.string().min(1).nullable(),
    system_prompt_hash: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hex digest')
      .nullable(),
    model: Model,
    chat: z.array(ChatMessage),
    operations: z.array(Operation),
    /** Files beside session.json (diffs, prompts, logs, large payloads), relative to the session folder. */
    artifacts: z.array(z.string().min(1)),
    outcome: Outcome,
  })
  .refine((d) => Date.parse(d.updated_at) >= Date.parse(d.created_at), { message: 'updated_at is earlier than created_at', path: ['updated_at'] })
  .meta({
    title: 'Session Vault session',
    description: 'One recorded assistant session (<sessions dir>/<id>/session.json), the MVP schema of Vizier session logging.',
  });
export type SessionDocument = z.infer<typeof SessionDocument>;

export function isClosed(doc: Pick<SessionDocument, 'outcome'>): boolean {
  return doc.outcome.status !== 'open';
}

export interface SchemaProblem {
  /** JSONPath-style location, e.g. `$.chat[2].role`. */
  path: string;
  message: string;
}

export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

function isMissing(root: unknown, path: readonly PropertyKey[]): boolean {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return true;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node === undefined;
}

/** Every problem zod finds, each with the path a person can look up in the file. */
export function schemaProblems(value: unknown): SchemaProblem[] {
  const parsed = SessionDocument.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return { path: jsonPath(issue.path), message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` };
    }
    if (issue.code === 'invalid_type' && isMissing(value, issue.path)) return { path: jsonPath(issue.path), message: 'is missing' };
    return { path: jsonPath(issue.path), message: issue.message };
  });
}
