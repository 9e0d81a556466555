// The bundle's manifest.json: what a bundle holds, each file's checksum, and what was redacted (never the secret).
import { z } from 'zod';
import { SourceFile, SourceFormat } from '../../shared/session.ts';

export const BUNDLE_FORMAT = 'session-vault-bundle';
/** Bumped when a reader of the previous version could misread a bundle; readers refuse newer ones. */
export const BUNDLE_FORMAT_VERSION = 1;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex SHA-256');

export const ManifestRedaction = z.object({
  /** The finding's id, as the review showed it. */
  id: z.string(),
  rule: z.string(),
  line: z.number().int().positive(),
});
export type ManifestRedaction = z.infer<typeof ManifestRedaction>;

export const ManifestFile = z.object({
  /** The entry's name in the zip. */
  path: z.string().min(1),
  /** Uncompressed size in bytes and the SHA-256 of exactly those bytes. */
  size: z.number().int().nonnegative(),
  sha256: Sha256,
  /** The session's folder name (`sessions/<folder>/`). */
  session: z.string(),
  /** session: the normalized session.json; source: a file the session was read from (byte-for-byte unless redacted). */
  kind: z.enum(['session', 'source']),
  /** The source file's role in its session (primary, transcript, artifact, …); null for session.json. */
  role: SourceFile.shape.role.nullable(),
  /** Where the source file was on the exporting machine; null for session.json. */
  originalPath: z.string().nullable(),
  /** The source file's modification time (ms since 1970), restored on import; null for session.json. */
  mtimeMs: z.number().nullable(),
  sourceFormat: SourceFormat,
  /** True when redaction changed this file: its bytes differ from the original. */
  redacted: z.boolean(),
  redactions: z.array(ManifestRedaction),
});
export type ManifestFile = z.infer<typeof ManifestFile>;

export const ManifestSession = z.object({
  folder: z.string(),
  key: z.string().min(1),
  id: z.string(),
  format: SourceFormat,
  title: z.string(),
  /** When the session closed or was last updated (what the vault's prune goes by). */
  sessionTime: z.string().nullable(),
});
export type ManifestSession = z.infer<typeof ManifestSession>;

export const RedactionReport = z.object({
  /** False when the bundle was exported with --no-redact: sources are byte-for-byte, secrets included. */
  enabled: z.boolean(),
  /** The rule sets that were applied. */
  rules: z.array(z.string()),
  findings: z.number().int().nonnegative(),
  redacted: z.number().int().nonnegative(),
  /** Findings the user marked as false positives and left in place. */
  kept: z.array(z.object({ id: z.string(), rule: z.string(), file: z.string(), line: z.number().int().positive() })),
});
export type RedactionReport = z.infer<typeof RedactionReport>;

export const Manifest = z.object({
  format: z.literal(BUNDLE_FORMAT),
  formatVersion: z.number().int().positive(),
  appVersion: z.string(),
  createdAt: z.string(),
  sessions: z.array(ManifestSession),
  files: z.array(ManifestFile),
  redaction: RedactionReport,
});
export type Manifest = z.infer<typeof Manifest>;
