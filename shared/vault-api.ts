// The vault's part of the contract: keep, annotate, fork, resume, prune, delete/restore, clear.
import { z } from 'zod';

const SessionKey = z.string().min(1).max(4096);

export const Annotations = z.object({
  starred: z.boolean(),
  tags: z.array(z.string().min(1).max(80)).max(100),
  note: z.string().max(100_000),
  updatedAt: z.string().nullable(),
});
export type Annotations = z.infer<typeof Annotations>;

/** Where a session stands with the vault, shown in the detail view. */
export const VaultStatus = z.object({
  annotations: Annotations,
  /** Folder of the kept copy, or null when the session is not kept. */
  keptPath: z.string().nullable(),
  keptAt: z.string().nullable(),
  /** The live source file still exists (a kept copy links to it while it does). */
  liveSourcePath: z.string().nullable(),
});
export type VaultStatus = z.infer<typeof VaultStatus>;

export const ResumeInfo = z.object({
  /** The command that resumes the session in its own tool, or null when the tool has none. */
  command: z.string().nullable(),
  /** Where to run it (the session's project folder). */
  cwd: z.string().nullable(),
  /** False when it must not be offered; `reason` says why (still active, project folder missing, ...). */
  available: z.boolean(),
  reason: z.string().nullable(),
});
export type ResumeInfo = z.infer<typeof ResumeInfo>;

export const TrashEntry = z.object({
  id: z.string(),
  key: z.string(),
  title: z.string(),
  deletedAt: z.string(),
  /** Where it lives: the OS trash (desktop) or the vault's own trash folder. */
  where: z.enum(['os-trash', 'vault-trash']),
});
export type TrashEntry = z.infer<typeof TrashEntry>;

export const PruneResult = z.object({
  dryRun: z.boolean(),
  olderThanDays: z.number(),
  sessions: z.array(z.object({ key: z.string(), title: z.string(), at: z.string().nullable() })),
});
export type PruneResult = z.infer<typeof PruneResult>;

export const VaultSettings = z.object({
  /** Keep every session automatically once it is closed or has been idle for 10 minutes. */
  autoKeep: z.boolean(),
});
export type VaultSettings = z.infer<typeof VaultSettings>;

export const vaultApi = {
  getVaultStatus: { input: z.object({ key: SessionKey }).strict(), output: VaultStatus },
  keepSession: { input: z.object({ key: SessionKey }).strict(), output: VaultStatus },
  setAnnotations: {
    input: z
      .object({
        key: SessionKey,
        starred: z.boolean().optional(),
        tags: z.array(z.string().trim().min(1).max(80)).max(100).optional(),
        note: z.string().max(100_000).optional(),
      })
      .strict(),
    output: Annotations,
  },
  /** A new open vault session made of the messages up to and including `throughMessage` (0-based). */
  forkSession: {
    input: z.object({ key: SessionKey, throughMessage: z.number().int().nonnegative() }).strict(),
    output: z.object({ key: z.string(), path: z.string() }),
  },
  getResumeInfo: { input: z.object({ key: SessionKey }).strict(), output: ResumeInfo },
  /** Opens a terminal in the session's project folder running its resume command (SESSION_VAULT_TERMINAL chooses the terminal). */
  resumeInTerminal: { input: z.object({ key: SessionKey }).strict(), output: z.object({ terminal: z.string() }) },
  pruneVault: {
    input: z.object({ olderThanDays: z.number().int().positive().max(36_500).default(30), dryRun: z.boolean().default(true) }).strict(),
    output: PruneResult,
  },
  /** Deletes the vault's copy (to the trash, restorable). Live source files are touched only when listed here, explicitly. */
  deleteSession: {
    input: z.object({ key: SessionKey, confirmSourceFiles: z.array(z.string()).max(1000).optional() }).strict(),
    output: z.object({ trashed: z.array(TrashEntry), sourceFilesDeleted: z.array(z.string()) }),
  },
  listTrash: { input: z.object({}).strict(), output: z.array(TrashEntry) },
  restoreSession: { input: z.object({ id: z.string().min(1).max(300) }).strict(), output: z.object({ key: z.string() }) },
  /** Moves every session the vault holds (kept copies and forks) to the trash; `confirm` must be "CLEAR". */
  clearVault: { input: z.object({ confirm: z.literal('CLEAR') }).strict(), output: z.object({ cleared: z.number().int().nonnegative() }) },
  getVaultSettings: { input: z.object({}).strict(), output: VaultSettings },
  setVaultSettings: { input: VaultSettings.partial().strict(), output: VaultSettings },
} as const;
