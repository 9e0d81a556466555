// Reads Devin CLI sessions: one sessions.db holds them all, each a tree of messages whose main chain is the conversation.
import { shellArg } from '../shell-quote.ts';
import type { SourceReader } from '../types.ts';
import { devinRows, listDevinStore, readDevinSession, readOnlyDevinSession } from './devin-container.ts';
import { claimsDevin, devinRoots } from './devin-paths.ts';

export const devinReader: SourceReader = {
  format: 'devin',
  capabilities: { tokens: false, recordedCost: false, subAgents: false, toolResults: true, thinking: true, images: true },
  defaultRoots: devinRoots,
  // `devin --resume <id>` (`devin --help` at CLI 3000.3.27: "-r, --resume [<SESSION_ID>] Resume a conversation by id", as
  // quoted by agent-sessions' DevinResumeCommandBuilder).
  resumeCommand: (s) => `devin --resume ${shellArg(s.id)}`,
  claims: claimsDevin,
  read: (absPath) => readOnlyDevinSession(absPath),
  container: {
    list: listDevinStore,
    readOne: (absPath, id) => readDevinSession(absPath, id),
    rows: devinRows,
  },
};
