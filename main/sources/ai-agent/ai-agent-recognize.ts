// Recognises an ai-agent v3 session ledger from its first records, wherever the file lies.
import type { Head } from '../head.ts';

/** Every ledger record carries `version: 3`, a `recordType` and a `seq`; the first is `session_start`. */
export function recognizesAiAgentLedger(head: Head): boolean {
  const first = head.records(1)[0];
  return first !== undefined && first.version === 3 && first.recordType === 'session_start' && typeof first.seq === 'number';
}
