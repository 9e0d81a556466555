// Reads Goose sessions: one sessions.db (SQLite) holds them all, in the current schema (version 15) or the minimal older one.
import { shellArg } from '../shell-quote.ts';
import type { SourceReader } from '../types.ts';
import { gooseRows, listGooseStore, readGooseSession, readOnlyGooseSession } from './goose-container.ts';
import { claimsGoose, gooseRoots } from './goose-paths.ts';

export const gooseReader: SourceReader = {
  format: 'goose',
  capabilities: { tokens: true, recordedCost: true, subAgents: true, toolResults: true, thinking: true, images: true },
  defaultRoots: gooseRoots,
  // `goose session --resume --session-id <id>` (Goose docs, guides/goose-cli-commands: `-r, --resume`; `--session-id` names a session).
  resumeCommand: (s) => (s.isSubAgent ? null : `goose session --resume --session-id ${shellArg(s.id)}`),
  claims: claimsGoose,
  read: (absPath) => readOnlyGooseSession(absPath),
  container: {
    list: listGooseStore,
    readOne: (absPath, id) => readGooseSession(absPath, id),
    rows: gooseRows,
  },
};
