// One pass over a Pi session's active branch: messages, model and thinking-level changes, compactions, metadata entries.
import { warnMissingContent } from '../missing-content.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import type { WarningList } from '../coerce.ts';
import { contentParts } from './pi-content.ts';
import type { PiBranch } from './pi-branch.ts';
import type { PiEntry } from './pi-entries.ts';
import { messageEntry } from './pi-message.ts';
import { addTokens, bump, newTranscript, pushMessage, type PiTranscript } from './pi-transcript-state.ts';
import { readPiUsage } from './pi-usage.ts';

/** Entries that carry state for the tool itself (oh-my-pi and extensions): known, and shown as counts only. */
const STATE_ENTRIES = new Set(['service_tier_change', 'ttsr_injection', 'mode_change', 'credential_pin', 'reset_boundary', 'archive']);
/** Entries read on every branch before the pass (names and labels apply to the whole file). */
const FILE_WIDE = new Set(['label', 'session_info', 'title_change']);

function modelChange(t: PiTranscript, e: PiEntry): void {
  const modelId = e.rec.string('modelId');
  if (modelId !== null) {
    t.current = { provider: e.rec.string('provider'), name: modelId };
    return;
  }
  // oh-my-pi writes "provider/modelId" in one field.
  const combined = e.rec.string('model');
  if (combined === null) return;
  const slash = combined.indexOf('/');
  t.current = slash > 0 ? { provider: combined.slice(0, slash), name: combined.slice(slash + 1) } : { provider: null, name: combined };
}

function compaction(t: PiTranscript, e: PiEntry): void {
  t.compactions++;
  const byExtension = e.rec.raw.fromHook === true || e.rec.raw.fromExtension === true;
  const notes: Record<string, unknown> = {};
  const firstKept = e.rec.string('firstKeptEntryId');
  if (firstKept !== null) notes.firstKeptEntryId = firstKept;
  const after = e.rec.number('tokensAfter');
  if (after !== null) notes.tokensAfter = after;
  pushMessage(
    t,
    e,
    'system',
    [
      {
        type: 'compaction',
        summary: e.rec.string('summary'),
        trigger: byExtension ? 'extension' : e.rec.string('method'),
        tokensBefore: e.rec.number('tokensBefore'),
      },
    ],
    notes,
  );
}

function branchSummary(t: PiTranscript, e: PiEntry): void {
  const summary = e.rec.string('summary');
  if (!summary) return;
  pushMessage(t, e, 'system', [{ type: 'text', text: summary }], { branchSummary: true, fromId: e.rec.string('fromId') });
}

function customMessage(t: PiTranscript, e: PiEntry): void {
  const parts = contentParts(e.rec.raw.content, 'content', t.warnings, t.unknownBlocks);
  if (parts.length === 0) {
    warnMissingContent(t.warnings, 'A Pi custom_message entry');
    return;
  }
  pushMessage(t, e, 'system', parts, { customType: e.rec.string('customType'), ...(e.rec.raw.display === false ? { hidden: true } : {}) });
}

/** oh-my-pi records calls made outside the conversation (titles, summaries) with their own usage. */
function sideCall(t: PiTranscript, e: PiEntry): void {
  const read = readPiUsage(e.rec.object('usage'));
  const model = e.rec.string('model');
  if (read) addTokens(t, read.usage);
  const cost = read ? (read.recorded ?? builtinPricing.estimate(model, read.usage)) : null;
  t.sideCalls.push({ purpose: e.rec.string('purpose'), model, usage: read?.usage ?? null, usd: cost?.usd ?? null });
}

function sessionInit(t: PiTranscript, e: PiEntry): void {
  const prompt = e.rec.raw.systemPrompt;
  if (typeof prompt === 'string') t.systemPrompt = prompt;
  else if (Array.isArray(prompt)) t.systemPrompt = prompt.filter((p): p is string => typeof p === 'string').join('\n\n');
  bump(t.otherEntries, 'session_init');
}

function branchEntry(t: PiTranscript, e: PiEntry): void {
  switch (e.type) {
    case 'message':
      return messageEntry(t, e);
    case 'model_change':
      return modelChange(t, e);
    case 'thinking_level_change':
      t.thinkingLevel = e.rec.string('thinkingLevel') ?? e.rec.string('configured') ?? t.thinkingLevel;
      return;
    case 'compaction':
      return compaction(t, e);
    case 'branch_summary':
      return branchSummary(t, e);
    case 'custom_message':
      return customMessage(t, e);
    case 'custom':
      return bump(t.otherEntries, `custom:${e.rec.string('customType') ?? '?'}`);
    case 'model_usage':
      return sideCall(t, e);
    case 'session_init':
      return sessionInit(t, e);
    default:
      if (FILE_WIDE.has(e.type)) return;
      if (STATE_ENTRIES.has(e.type)) return bump(t.otherEntries, e.type);
      bump(t.unknownTypes, e.type);
  }
}

/** Names and labels hold for the whole file, whichever branch wrote them; the latest wins. */
function fileWide(t: PiTranscript, all: readonly PiEntry[]): void {
  for (const e of all) {
    if (e.timestamp !== null) {
      if (t.firstTimestamp === null || e.timestamp < t.firstTimestamp) t.firstTimestamp = e.timestamp;
      if (t.lastTimestamp === null || e.timestamp > t.lastTimestamp) t.lastTimestamp = e.timestamp;
    }
    if (e.type === 'label') {
      const target = e.rec.string('targetId');
      const label = e.rec.string('label');
      if (target !== null && label) t.labels.set(target, label);
      else if (target !== null) t.labels.delete(target);
    } else if (e.type === 'session_info' || e.type === 'title_change') {
      const name = (e.type === 'session_info' ? e.rec.string('name') : e.rec.string('title'))?.trim();
      if (name) t.name = name;
    }
  }
}

export function readTranscript(branch: PiBranch, all: readonly PiEntry[], warnings: WarningList): PiTranscript {
  const t = newTranscript(warnings);
  fileWide(t, all);
  for (const entry of branch.path) branchEntry(t, entry);
  return t;
}
