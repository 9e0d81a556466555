// Reads the records of one Claude Code JSONL file in one pass: conversation turns, compaction, metadata.
import { addUsage, emptyUsage, Fields, isRecord, kindOfJson, limitDepth, type WarningList } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';
import { heldKeys, showsNothing, warnMissingContent } from '../missing-content.ts';
import { contentToParts, maxUsage, readUsage, textOf, wellFormed, type BlockNotes } from './claude-code-blocks.ts';
import { addHook, countIgnored, readMetadataRecord } from './claude-code-metadata.ts';
import {
  closeSpawns,
  COMMAND_TEXT,
  newMessage,
  newState,
  note,
  noteToolCalls,
  type Conversation,
  type ConversationOptions,
  type State,
} from './claude-code-state.ts';

export type { Conversation, ConversationOptions } from './claude-code-state.ts';

function track(state: State, rec: Fields): void {
  const { conv } = state;
  const ts = rec.timestamp('timestamp');
  state.ts = ts;
  if (ts !== null) {
    if (conv.createdAt === null || ts < conv.createdAt) conv.createdAt = ts;
    if (conv.updatedAt === null || ts > conv.updatedAt) conv.updatedAt = ts;
  }
  // 1.x records named the working directory "project".
  const cwd = rec.string('cwd') ?? rec.string('project');
  if (cwd !== null && !conv.cwds.includes(cwd)) conv.cwds.push(cwd);
  conv.branch = rec.string('gitBranch') || conv.branch;
  conv.version = rec.string('version') ?? conv.version;
  const sessionId = rec.string('sessionId');
  if (sessionId !== null && !conv.sessionIds.includes(sessionId)) conv.sessionIds.push(sessionId);
}

/** True when the message object holds no `content` (absent, null, or under a key this reader does not know). */
function lacksContent(msg: Fields): boolean {
  return msg.raw.content === undefined || msg.raw.content === null;
}

function userRecord(state: State, rec: Fields, line: number): void {
  const msg = rec.object('message');
  const notes: BlockNotes = {};
  // A user turn without content carries nothing else (no tokens): it is left out, with a warning.
  if (!msg || lacksContent(msg)) {
    warnMissingContent(state.warnings, 'A user message', { found: msg ? heldKeys(msg.raw) : 'the record has no "message"' });
    return;
  }
  const parts = contentToParts(msg.raw.content, 'message.content', state.warnings, notes);
  if (showsNothing(parts) && rec.raw.isCompactSummary !== true) {
    warnMissingContent(state.warnings, 'A user message', { found: 'none of it can be shown' });
    return;
  }
  if (rec.raw.isCompactSummary === true) {
    const summary = textOf(parts);
    const pending = state.pendingCompaction;
    state.pendingCompaction = null;
    if (pending) {
      pending.part.summary = summary;
      note(pending.message, 'summaryLine', line);
      return;
    }
    const message = newMessage(state, rec, line, 'system', [{ type: 'compaction', summary, trigger: null, tokensBefore: null }]);
    note(message, 'compactSummary', true);
    return;
  }
  state.pendingCompaction = null;
  const onlyResults = parts.some((p) => p.type === 'tool_result') && parts.every((p) => p.type === 'tool_result' || p.type === 'image');
  // A record that only returns tool output belongs to the preceding call, not to the person typing.
  const message = newMessage(state, rec, line, onlyResults ? 'tool' : 'user', parts);
  if (rec.raw.isMeta === true) note(message, 'isMeta', true);
  if (COMMAND_TEXT.test(textOf(parts))) note(message, 'command', true);
  if (rec.present('toolUseResult')) note(message, 'toolUseResult', rec.value('toolUseResult'));
  for (const [k, v] of Object.entries(notes)) note(message, k, v);
  closeSpawns(state, parts, message.timestamp);
}

function assistantRecord(state: State, rec: Fields, line: number): void {
  const msg = rec.object('message');
  // A record without a message holds nothing; a reply without content still carries its model and token counts,
  // so it stays, shown without text.
  if (!msg) return warnMissingContent(state.warnings, 'An assistant message', { found: 'the record has no "message"' });
  const notes: BlockNotes = {};
  const parts = contentToParts(msg.raw.content, 'message.content', state.warnings, notes);
  const messageId = msg.string('id');
  const usage = readUsage(msg.object('usage'));
  // Streamed replies come one block per line: a line adds nothing only when its message has nothing either. A reply
  // with nothing to show stays (without text) for its model and tokens; one without those either is left out.
  const sofar = messageId !== null ? state.byMessageId.get(messageId) : undefined;
  if (showsNothing(parts) && (!sofar || showsNothing(sofar.parts))) {
    const found = lacksContent(msg) ? heldKeys(msg.raw) : 'none of it can be shown';
    const kept = sofar !== undefined || usage !== null || msg.string('model') !== null;
    warnMissingContent(state.warnings, 'An assistant message', kept ? { found, keptFor: 'its model and token counts' } : { found });
    if (!kept) return;
  }
  state.pendingCompaction = null;

  // Claude Code writes one line per content block of a streamed response, all with the same message.id.
  let message = messageId !== null ? state.byMessageId.get(messageId) : undefined;
  if (message) message.parts.push(...parts);
  else {
    message = newMessage(state, rec, line, 'assistant', parts);
    message.model = msg.string('model');
    if (messageId !== null) state.byMessageId.set(messageId, message);
    if (message.model !== null && message.model !== '<synthetic>') {
      state.conv.models.set(message.model, (state.conv.models.get(message.model) ?? 0) + 1);
    }
  }
  if (usage) {
    const key = messageId ?? rec.string('requestId') ?? `line-${line}`;
    const owner = state.usageByKey.get(key);
    if (owner) owner.usage = maxUsage(owner.usage ?? usage, usage);
    else {
      message.usage = usage;
      state.usageByKey.set(key, message);
    }
    // Older CLIs recorded the call's price; a recorded cost wins over any estimate.
    const recorded = rec.number('costUSD');
    if (recorded !== null) (owner ?? message).cost = { usd: recorded, estimated: false };
  }
  const stop = msg.string('stop_reason');
  if (stop !== null && stop !== 'end_turn' && stop !== 'tool_use') note(message, 'stopReason', stop);
  if (rec.raw.isApiErrorMessage === true) note(message, 'isApiErrorMessage', true);
  // Which plugin, skill or MCP tool the reply came through (newer CLIs): kept on the message, found by search.
  for (const key of ATTRIBUTION) {
    const value = rec.string(key);
    if (value !== null && value !== '') note(message, key, value);
  }
  for (const [k, v] of Object.entries(notes)) note(message, k, v);
  state.conv.effort = rec.string('effort') ?? state.conv.effort;
  noteToolCalls(state, message, parts, line);
}

const ATTRIBUTION = ['attributionPlugin', 'attributionSkill', 'attributionMcpServer', 'attributionMcpTool'] as const;

/** Text with a letter or digit in it (a hook that printed `{}` said nothing). */
const saysSomething = (text: unknown): text is string => typeof text === 'string' && /[\p{L}\p{N}]/u.test(text);

/** API errors nest the provider's message one or two levels deep ({error: {error: {message}}}). */
function errorText(error: unknown, depth = 0): string | null {
  if (!isRecord(error) || depth > 2) return null;
  if (typeof error.message === 'string' && error.message.trim() !== '') return error.message;
  return errorText(error.error, depth + 1) ?? (typeof error.type === 'string' ? error.type : null);
}

function systemRecord(state: State, rec: Fields, line: number): void {
  const subtype = rec.string('subtype');
  if (subtype === 'compact_boundary') {
    const meta = rec.object('compactMetadata');
    const part = {
      type: 'compaction' as const,
      summary: null,
      trigger: meta?.string('trigger') ?? rec.string('trigger'),
      tokensBefore: meta?.number('preTokens') ?? null,
    };
    const message = newMessage(state, rec, line, 'system', [part]);
    if (meta) note(message, 'compactMetadata', rec.value('compactMetadata'));
    state.pendingCompaction = { message, part };
    return;
  }
  const hookErrors = subtype === 'stop_hook_summary' ? stopHooks(state, rec) : null;
  const content = rec.raw.content;
  // An API refusal's content is the word "refusal"; its explanation says why.
  const refusal = subtype === 'api_refusal' ? rec.string('apiRefusalExplanation') : null;
  const text = refusal ?? (typeof content === 'string' && content.trim() !== '' ? content : (errorText(rec.raw.error) ?? hookErrors));
  if (text === null) {
    countIgnored(state.conv.meta, `system:${subtype ?? 'none'}`);
    return;
  }
  const message = newMessage(state, rec, line, 'system', [{ type: 'text', text: wellFormed(text, state.warnings) }]);
  if (subtype !== null) note(message, 'subtype', subtype);
  const level = rec.string('level');
  if (level !== null) note(message, 'level', level);
  const category = subtype === 'api_refusal' ? rec.string('apiRefusalCategory') : null;
  if (category !== null) note(message, 'refusalCategory', category);
}

/**
 * A stop hook's summary names the commands that ran when the turn stopped (listed with the hooks' progress records);
 * returns the errors they reported, as the note's text, or null when none did.
 */
function stopHooks(state: State, rec: Fields): string | null {
  for (const info of Array.isArray(rec.raw.hookInfos) ? rec.raw.hookInfos : []) {
    if (isRecord(info) && typeof info.command === 'string') addHook(state.conv.meta, { hookEvent: 'Stop', hookName: null, command: info.command });
  }
  const errors = Array.isArray(rec.raw.hookErrors) ? rec.raw.hookErrors.filter(saysSomething) : [];
  return errors.length ? errors.join('\n') : null;
}

/** Claude Code 1.x wrote tool calls and results as records of their own. */
function legacyToolRecord(state: State, rec: Fields, line: number, type: 'tool_use' | 'tool_result'): void {
  const name = rec.string('name') ?? 'tool';
  if (type === 'tool_use') {
    const message = newMessage(state, rec, line, 'assistant', [{ type: 'tool_call', callId: rec.string('id'), name, input: rec.value('input') ?? null }]);
    noteToolCalls(state, message, message.parts, line);
    return;
  }
  const output = rec.raw.output;
  const text = typeof output === 'string' ? output : output === undefined ? '' : JSON.stringify(limitDepth(output, state.warnings, 'output'));
  const isError = typeof rec.raw.is_error === 'boolean' ? rec.raw.is_error : null;
  newMessage(state, rec, line, 'tool', [{ type: 'tool_result', callId: rec.string('tool_use_id'), output: wellFormed(text, state.warnings), isError }]);
}

/**
 * A hook's attachment (hook_success, hook_additional_context, a hook's error ...): the hook joins the session's list of
 * hooks, and what it printed or added to the model's context is shown as a system note, folded like other hook output.
 */
function hookAttachment(state: State, rec: Fields, attachment: Fields, kind: string, line: number): void {
  const hookEvent = attachment.string('hookEvent');
  const hookName = attachment.string('hookName');
  // A blocking error nests its message and command one level down ({blockingError: {blockingError, command}}).
  const blocking = isRecord(attachment.raw.blockingError) ? attachment.raw.blockingError : {};
  const command = attachment.string('command') ?? (typeof blocking.command === 'string' ? blocking.command : null);
  addHook(state.conv.meta, { hookEvent, hookName, command });
  const content = attachment.raw.content;
  const printed = [attachment.raw.stdout, attachment.raw.stderr, blocking.blockingError];
  const said = [...(Array.isArray(content) ? content : [content]), ...printed].filter(saysSomething);
  if (said.length === 0) {
    countIgnored(state.conv.meta, `attachment:${kind}`);
    return;
  }
  const message = newMessage(state, rec, line, 'system', [{ type: 'text', text: wellFormed(said.join('\n'), state.warnings) }]);
  note(message, 'kind', 'hook');
  note(message, 'attachment', kind);
  if (hookEvent !== null) note(message, 'hookEvent', hookEvent);
  if (hookName !== null) note(message, 'hookName', hookName);
}

/** Attachments: a hook's (hookAttachment), a prompt typed while the agent was busy (`queued_command`); the rest are counted. */
function attachmentRecord(state: State, rec: Fields, line: number): void {
  const attachment = rec.object('attachment');
  const kind = attachment?.string('type') ?? null;
  if (attachment && kind?.startsWith('hook_')) {
    hookAttachment(state, rec, attachment, kind, line);
    return;
  }
  if (!attachment || kind !== 'queued_command') {
    countIgnored(state.conv.meta, 'attachment');
    return;
  }
  const parts = contentToParts(attachment.raw.prompt, 'attachment.prompt', state.warnings, {});
  note(newMessage(state, rec, line, 'user', parts), 'queued', true);
}

function addRecord(state: State, { value, line }: JsonLine): void {
  const { conv, warnings } = state;
  const bump = (label: string) => conv.recordTypes.set(label, (conv.recordTypes.get(label) ?? 0) + 1);
  if (!isRecord(value)) {
    bump(`${kindOfJson(value)} line`);
    warnings.add('not_a_record', `Lines holding ${kindOfJson(value)} instead of a record object were skipped.`);
    return;
  }
  const rec = new Fields(value, '', warnings);
  const type = rec.string('type');
  if (type === null) {
    bump('record without a type');
    warnings.add('missing_type', 'Records without a "type" were skipped.');
    return;
  }
  bump(type);
  track(state, rec);
  switch (type) {
    case 'user':
    case 'assistant':
    case 'system':
    case 'tool_use':
    case 'tool_result':
      conv.conversationRecords++;
      // Read quietly: a uuid of the wrong type is reported where the message takes its id.
      if (typeof value.uuid === 'string') conv.recordUuids.add(value.uuid);
      if (type === 'user') userRecord(state, rec, line);
      else if (type === 'assistant') assistantRecord(state, rec, line);
      else if (type === 'system') systemRecord(state, rec, line);
      else legacyToolRecord(state, rec, line, type);
      return;
    case 'attachment':
      attachmentRecord(state, rec, line);
      return;
    default:
      if (!readMetadataRecord(type, rec, conv.meta)) warnings.add('unknown_record_type', `Records of unknown type "${type}" were skipped.`);
  }
}

/** Reads every record of one file, in file order. */
export function readConversation(records: readonly JsonLine[], warnings: WarningList, options: ConversationOptions): Conversation {
  const state = newState(warnings, options);
  const { conv } = state;
  for (const record of records) addRecord(state, record);
  if (state.usageByKey.size > 0) {
    const total = emptyUsage();
    for (const message of state.usageByKey.values()) if (message.usage) addUsage(total, message.usage);
    conv.usage = total;
  }
  conv.sidechainOnly = state.sidechainSeen && !state.mainSeen;
  return conv;
}
