// Streams ai-agent's billing file (~/.ai-agent/accounting.jsonl) into per-transaction and per-origin totals; it is not a session.
import { dirname, join } from 'node:path';
import type { TokenUsage, Warning } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { addUsage, emptyUsage, Fields, isoFromEpochMs, isRecord, WarningList } from '../coerce.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';
import { readAccountingEntry, type EntryFacts } from './ai-agent-usage.ts';

export interface AccountingTotals {
  entries: number;
  failed: number;
  llm: {
    calls: number;
    usage: TokenUsage;
    /** Sum of the costs ai-agent recorded. */
    costUsd: number;
    /** Calls that recorded no cost, and what the pricing table makes of those whose model it knows. */
    callsWithoutCost: number;
    estimatedUsd: number;
    models: string[];
  };
  tool: { calls: number; charactersIn: number; charactersOut: number };
  firstAt: string | null;
  lastAt: string | null;
}

/** One transaction (one agent run: the root or a sub-agent) with its lineage. */
export interface TxnAccounting extends AccountingTotals {
  txnId: string;
  originTxnId: string | null;
  parentTxnId: string | null;
  agentId: string | null;
  callPath: string | null;
}

export interface AccountingLedger {
  path: string;
  overall: AccountingTotals;
  /** Keyed by txnId. */
  byTxn: Record<string, TxnAccounting>;
  /** Keyed by originTxnId: a whole run including its sub-agents (the snapshot file is named after it). */
  byOrigin: Record<string, AccountingTotals>;
  warnings: Warning[];
}

function emptyTotals(): AccountingTotals {
  return {
    entries: 0,
    failed: 0,
    llm: { calls: 0, usage: emptyUsage(), costUsd: 0, callsWithoutCost: 0, estimatedUsd: 0, models: [] },
    tool: { calls: 0, charactersIn: 0, charactersOut: 0 },
    firstAt: null,
    lastAt: null,
  };
}

function add(t: AccountingTotals, e: EntryFacts, at: string | null): void {
  t.entries++;
  if (e.status === 'failed' || e.error !== null) t.failed++;
  if (at !== null) {
    if (t.firstAt === null || at < t.firstAt) t.firstAt = at;
    if (t.lastAt === null || at > t.lastAt) t.lastAt = at;
  }
  if (e.type === 'llm') {
    t.llm.calls++;
    if (e.usage) addUsage(t.llm.usage, e.usage);
    if (e.costUsd !== null) t.llm.costUsd += e.costUsd;
    else {
      t.llm.callsWithoutCost++;
      t.llm.estimatedUsd += builtinPricing.estimate(e.model, e.usage)?.usd ?? 0;
    }
    if (e.model !== null && !t.llm.models.includes(e.model)) t.llm.models.push(e.model);
  } else if (e.type === 'tool') {
    t.tool.calls++;
    t.tool.charactersIn += e.charactersIn ?? 0;
    t.tool.charactersOut += e.charactersOut ?? 0;
  }
}

/** Totals over already-parsed lines of the billing file (pure; tests call it directly). */
export function summarizeAccounting(records: JsonLine[], path: string, initial: Warning[] = []): AccountingLedger {
  const warnings = new WarningList();
  warnings.addAll(initial);
  const overall = emptyTotals();
  const byTxn = new Map<string, TxnAccounting>();
  const byOrigin = new Map<string, AccountingTotals>();
  const unknown = new Map<string, number>();
  for (const { value, line } of records) {
    if (!isRecord(value)) {
      warnings.wrongType(`line ${line}`, 'an accounting entry object', value);
      continue;
    }
    const e = readAccountingEntry(new Fields(value, 'entry', warnings));
    if (e.type !== 'llm' && e.type !== 'tool') {
      const label = e.type ?? '(none)';
      unknown.set(label, (unknown.get(label) ?? 0) + 1);
      continue;
    }
    const at = e.timestampMs !== null ? isoFromEpochMs(e.timestampMs) : null;
    add(overall, e, at);
    if (e.txnId === null) {
      warnings.add('missing_field', 'Some accounting entries have no txnId; they count only towards the overall totals.');
      continue;
    }
    let txn = byTxn.get(e.txnId);
    if (!txn) {
      txn = { ...emptyTotals(), txnId: e.txnId, originTxnId: e.originTxnId, parentTxnId: e.parentTxnId, agentId: e.agentId, callPath: e.callPath };
      byTxn.set(e.txnId, txn);
    }
    add(txn, e, at);
    const origin = e.originTxnId ?? e.txnId;
    let o = byOrigin.get(origin);
    if (!o) byOrigin.set(origin, (o = emptyTotals()));
    add(o, e, at);
  }
  for (const [type, n] of unknown) {
    warnings.add(
      'unknown_record_type',
      `Accounting entry type ${JSON.stringify(type)} is not known to this app (${n === 1 ? '1 entry' : `${n} entries`}); skipped.`,
    );
  }
  // fromEntries keeps ids such as "__proto__" as plain data keys.
  return { path, overall, byTxn: Object.fromEntries(byTxn), byOrigin: Object.fromEntries(byOrigin), warnings: warnings.list() };
}

/** Streams the billing file once; throws UnreadableError for an empty or wholly unparsable file. */
export async function readAccountingLedger(path: string): Promise<AccountingLedger> {
  const { records, warnings } = await readJsonLines(path);
  return summarizeAccounting(records, path, warnings);
}

/** Where the billing file sits for a sessions root (`~/.ai-agent/sessions` → `~/.ai-agent/accounting.jsonl`). */
export function accountingLedgerPath(sessionsRoot: string): string {
  return join(dirname(sessionsRoot), 'accounting.jsonl');
}
