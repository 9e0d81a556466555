// Reads Kilo: the OpenCode-based Kilo CLI and VS Code extension (kilo.db in OpenCode's schema, or ccusage's usage-only subset, and an OpenCode-style storage/ tree) through the OpenCode reader, and the pre-2026 extension's Cline-style task folders through the Cline reader.
import { claimsTask, clineRoots, KILO_LEGACY, taskCompanion } from '../cline/cline-paths.ts';
import { readClineTask } from '../cline/cline.ts';
import type { OpenCodeApp } from '../opencode/opencode-layout.ts';
import { openCodeFamilyReader } from '../opencode/opencode.ts';
import type { SourceReader } from '../types.ts';

export const KILO: OpenCodeApp = {
  format: 'kilo',
  label: 'Kilo',
  dataDirName: 'kilo',
  // The Kilo CLI 1.0 is OpenCode's: `kilo --session <id>` continues a session (kilo.ai/docs/cli, CLI reference).
  command: 'kilo',
  // ccusage reads KILO_DATA_DIR.
  dataDirVariables: ['KILO_DATA_DIR'],
};

const openCodeKilo = openCodeFamilyReader(KILO);

/** A legacy extension task's id: a UUID (or, from its Cline ancestry, the start in epoch milliseconds); OpenCode's are `ses_…`. */
const LEGACY_TASK_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{12,14})$/i;

/**
 * Kilo Code's VS Code extension before its OpenCode-based rebuild (2026) kept each task in
 * `globalStorage/kilocode.kilo-code/tasks/<id>/` as Cline does; those folders are read by the Cline reader, keyed `kilo:<task id>`.
 */
export const kiloReader: SourceReader = {
  ...openCodeKilo,
  defaultRoots: (env, home) => [...openCodeKilo.defaultRoots(env, home), ...clineRoots(KILO_LEGACY, env, home)],
  // A legacy task has no command line to resume it from: only the OpenCode-based sessions resume with `kilo --session`.
  resumeCommand: (s) => (LEGACY_TASK_ID.test(s.id) ? null : openCodeKilo.resumeCommand(s)),
  claims: (absPath) => claimsTask(KILO_LEGACY, absPath) || openCodeKilo.claims(absPath),
  companion: (absPath) => taskCompanion(KILO_LEGACY, absPath) || (openCodeKilo.companion?.(absPath) ?? false),
  read: (absPath) => (claimsTask(KILO_LEGACY, absPath) ? readClineTask(KILO_LEGACY, absPath) : openCodeKilo.read(absPath)),
};
