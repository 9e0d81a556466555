// Reads the records of a Droid interactive session (~/.factory/sessions/<cwd>/<id>.jsonl): session_start, message, todo_state.
import { warnMissingContent } from '../missing-content.ts';
import type { MessagePart } from '../../../shared/session.ts';
import { isRecord, type Fields } from '../coerce.ts';
import { droidParts, splitReminders } from './droid-blocks.ts';
import { bump, droidTime, pushMessage, pushPrompt, type DroidState } from './droid-state.ts';

function sessionStart(state: DroidState, rec: Fields): void {
  state.sessionId ??= rec.string('id');
  state.title = rec.string('sessionTitle') ?? rec.string('title') ?? state.title;
  state.cwd ??= rec.string('cwd');
  state.owner ??= rec.string('owner');
  // Writers disagree on the type of `version` ("0.81.0", 2).
  const version = rec.raw.version;
  if (typeof version === 'string' || typeof version === 'number') state.version = String(version);
}

/** A user record's text blocks lose their leading system reminders; the reminders become a message of their own. */
function userParts(parts: MessagePart[]): { reminders: string[]; parts: MessagePart[] } {
  const reminders: string[] = [];
  const kept: MessagePart[] = [];
  for (const part of parts) {
    if (part.type !== 'text') {
      kept.push(part);
      continue;
    }
    const split = splitReminders(part.text);
    reminders.push(...split.reminders);
    if (split.prompt.trim() !== '') kept.push({ type: 'text', text: split.prompt });
  }
  return { reminders, parts: kept };
}

function messageRecord(state: DroidState, rec: Fields, line: number): void {
  const timestamp = droidTime(state, rec.raw.timestamp);
  const msg = rec.object('message');
  const role = msg?.string('role') ?? null;
  const parts = msg ? droidParts(msg.raw.content, state.warnings, state.unknownBlocks) : [];
  const id = rec.string('id');
  if (parts.length === 0) {
    warnMissingContent(state.warnings, 'A Droid message record');
    return;
  }
  if (role === 'assistant') {
    const message = pushMessage(state, id, line, 'assistant', timestamp, parts);
    message.model = msg?.string('model') ?? null;
    return;
  }
  if (role !== 'user') {
    pushMessage(state, id, line, 'system', timestamp, parts, { role });
    if (role !== 'system') state.warnings.add('unknown_role', `Messages with the role ${JSON.stringify(role)} are shown as system messages.`);
    return;
  }
  // Tool output comes back in a user record; it belongs to the call, not to the person typing.
  if (parts.every((p) => p.type === 'tool_result' || p.type === 'image') && parts.some((p) => p.type === 'tool_result')) {
    pushMessage(state, id, line, 'tool', timestamp, parts);
    return;
  }
  const split = userParts(parts);
  pushPrompt(state, id, line, timestamp, split.reminders, split.parts);
}

function todoState(state: DroidState, rec: Fields): void {
  bump(state.otherRecords, 'todo_state');
  const todos = rec.raw.todos;
  if (!Array.isArray(todos)) return;
  state.todos = todos.flatMap((t) => {
    if (!isRecord(t) || typeof t.content !== 'string' || typeof t.status !== 'string') return [];
    return [{ content: t.content, status: t.status, activeForm: typeof t.activeForm === 'string' ? t.activeForm : null }];
  });
}

export function storeRecord(state: DroidState, rec: Fields, type: string, line: number): void {
  switch (type) {
    case 'session_start':
      return sessionStart(state, rec);
    case 'message':
      return messageRecord(state, rec, line);
    case 'todo_state':
      return todoState(state, rec);
    default:
      bump(state.unknownTypes, type);
  }
}
