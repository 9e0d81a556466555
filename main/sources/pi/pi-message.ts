// Reads one `message` entry of a Pi session by its role: user, assistant, toolResult, bashExecution, custom, system.
import { warnMissingContent } from '../missing-content.ts';
import type { Message, MessagePart } from '../../../shared/session.ts';
import { builtinPricing } from '../../pricing/pricing-table.ts';
import { limitDepth, type Fields } from '../coerce.ts';
import { contentParts, resultParts } from './pi-content.ts';
import type { PiEntry } from './pi-entries.ts';
import { addTokens, bump, pushMessage, type PiTranscript } from './pi-transcript-state.ts';
import { readPiUsage } from './pi-usage.ts';

/** A message with nothing to show is left out and counted, never shown empty. */
function noContent(t: PiTranscript, role: string): void {
  warnMissingContent(t.warnings, `A Pi ${role} message`);
}

function userMessage(t: PiTranscript, entry: PiEntry, msg: Fields): void {
  const parts = contentParts(msg.raw.content, 'message.content', t.warnings, t.unknownBlocks);
  if (parts.length === 0) return noContent(t, 'user');
  pushMessage(t, entry, 'user', parts);
}

function assistantMessage(t: PiTranscript, entry: PiEntry, msg: Fields): void {
  const parts = contentParts(msg.raw.content, 'message.content', t.warnings, t.unknownBlocks);
  const stopReason = msg.string('stopReason');
  const errorMessage = msg.string('errorMessage');
  const notes: Record<string, unknown> = {};
  if (stopReason !== null && stopReason !== 'stop' && stopReason !== 'toolUse') notes.stopReason = stopReason;
  if (errorMessage !== null) {
    notes.errorMessage = errorMessage;
    // A failed call often has no content: its error is what happened.
    if (parts.length === 0) parts.push({ type: 'text', text: errorMessage });
  }
  const read = readPiUsage(msg.object('usage'));
  if (parts.length === 0 && !read) return noContent(t, 'assistant');
  // An assistant message names its model; one without inherits the model last switched to.
  const own = msg.string('model');
  const name = own ?? t.current?.name ?? null;
  const provider = msg.string('provider') ?? (own === null ? (t.current?.provider ?? null) : null);
  if (own !== null) t.current = { provider, name: own };
  if (name !== null) {
    const seen = t.models.get(name);
    t.models.set(name, { provider: seen?.provider ?? provider, count: (seen?.count ?? 0) + 1 });
  }
  const message = pushMessage(t, entry, 'assistant', parts, notes);
  message.model = name;
  t.lastStopReason = stopReason;
  if (read) {
    message.usage = read.usage;
    message.cost = read.recorded ?? builtinPricing.estimate(name, read.usage);
    addTokens(t, read.usage);
  }
}

function toolResultMessage(t: PiTranscript, entry: PiEntry, msg: Fields): void {
  const { text, images } = resultParts(msg.raw.content, 'message.content', t.warnings, t.unknownBlocks);
  const callId = msg.string('toolCallId');
  const isError = typeof msg.raw.isError === 'boolean' ? msg.raw.isError : null;
  const parts: MessagePart[] = [{ type: 'tool_result', callId, output: text, isError }, ...images];
  const notes: Record<string, unknown> = {};
  const toolName = msg.string('toolName');
  if (toolName !== null) notes.toolName = toolName;
  if (msg.present('details')) notes.details = limitDepth(msg.raw.details, t.warnings, 'message.details');
  pushMessage(t, entry, 'tool', parts, notes);
}

/** `!command` typed by the user: the command and its output, paired like a tool call. */
function bashMessage(t: PiTranscript, entry: PiEntry, msg: Fields): void {
  const command = msg.string('command') ?? '';
  const exitCode = msg.number('exitCode');
  const cancelled = msg.raw.cancelled === true;
  const callId = `bash:${entry.id}`;
  const parts: MessagePart[] = [
    { type: 'tool_call', callId, name: 'bash', input: { command } },
    { type: 'tool_result', callId, output: msg.string('output') ?? '', isError: cancelled || (exitCode !== null && exitCode !== 0) },
  ];
  const notes: Record<string, unknown> = { bashExecution: true };
  if (exitCode !== null) notes.exitCode = exitCode;
  if (cancelled) notes.cancelled = true;
  if (msg.raw.excludeFromContext === true) notes.excludeFromContext = true;
  pushMessage(t, entry, 'user', parts, notes);
}

/** Messages an extension put into the conversation, and summaries Pi wrote for the model: not typed by the user. */
function injectedMessage(t: PiTranscript, entry: PiEntry, msg: Fields, role: string): void {
  const content = role === 'branchSummary' || role === 'compactionSummary' ? msg.raw.summary : msg.raw.content;
  const parts = contentParts(content, 'message.content', t.warnings, t.unknownBlocks);
  if (parts.length === 0) return noContent(t, role);
  const notes: Record<string, unknown> = { role };
  const customType = msg.string('customType');
  if (customType !== null) notes.customType = customType;
  if (msg.raw.display === false) notes.hidden = true;
  pushMessage(t, entry, 'system', parts, notes);
}

const ROLES = new Set(['user', 'assistant', 'toolResult', 'bashExecution', 'custom', 'hookMessage', 'branchSummary', 'compactionSummary', 'system']);

export function messageEntry(t: PiTranscript, entry: PiEntry): void {
  const msg = entry.rec.object('message');
  if (!msg) {
    t.warnings.add('missing_field', 'A message entry has no "message" object; it was left out.');
    return;
  }
  const role = msg.string('role') ?? 'no role';
  if (!ROLES.has(role)) {
    bump(t.unknownRoles, role);
    const parts = contentParts(msg.raw.content, 'message.content', t.warnings, t.unknownBlocks);
    if (parts.length) pushMessage(t, entry, 'system', parts, { role });
    return;
  }
  if (role === 'user') userMessage(t, entry, msg);
  else if (role === 'assistant') assistantMessage(t, entry, msg);
  else if (role === 'toolResult') toolResultMessage(t, entry, msg);
  else if (role === 'bashExecution') bashMessage(t, entry, msg);
  else injectedMessage(t, entry, msg, role);
}

/** Claude-style check used for liveness: the last answer has no tool call left to run. */
export function isFinalAnswer(message: Message | undefined): boolean {
  return message?.role === 'assistant' && !message.parts.some((p) => p.type === 'tool_call');
}
