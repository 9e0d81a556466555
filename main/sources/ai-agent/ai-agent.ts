// The ai-agent reader: v1/v2 gzipped opTree snapshots and v3 session ledgers, both under ~/.ai-agent/sessions.
import { recognizesAiAgentLedger } from './ai-agent-recognize.ts';
import { join } from 'node:path';
import { claimsLedger, claimsSnapshot } from './ai-agent-paths.ts';
import { readAiAgentLedger } from './ai-agent-ledger.ts';
import { readAiAgentSnapshot } from './ai-agent-snapshot.ts';
import type { SourceReader } from '../types.ts';

export { parseAiAgentSnapshot } from './ai-agent-snapshot.ts';
export { parseAiAgentLedger } from './ai-agent-ledger.ts';
export { accountingLedgerPath, readAccountingLedger } from './ai-agent-accounting.ts';

export function claimsAiAgent(absPath: string): boolean {
  return claimsSnapshot(absPath) || claimsLedger(absPath);
}

export const aiAgentReader: SourceReader = {
  format: 'ai-agent',
  capabilities: { tokens: true, recordedCost: true, subAgents: true, toolResults: true, thinking: true, images: false },
  // Snapshots (v1/v2 .json.gz) and the v3 ledger share ~/.ai-agent/sessions.
  defaultRoots: (_env, home) => [join(home, '.ai-agent', 'sessions')],
  resumeCommand: () => null,
  claims: claimsAiAgent,
  recognizes: recognizesAiAgentLedger,
  read(absPath) {
    return /\.jsonl$/i.test(absPath) ? readAiAgentLedger(absPath) : readAiAgentSnapshot(absPath);
  },
};
