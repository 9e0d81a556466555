// Reads kimi-cli's context.jsonl: the chat as the model sees it (roles user, assistant, tool and _system_prompt/_checkpoint/_usage).
import { warnMissingContent } from '../missing-content.ts';
import { Fields, isRecord, kindOfJson, sumCounts } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';
import { kimiParts, outputText, toolCallPart } from './kimi-parts.ts';
import { bump, pushMessage, type KimiState } from './kimi-state.ts';

/** kimi-cli writes the working directory into its system prompt; the folder hash in the path cannot be reversed. */
const WORK_DIR = /The current working directory is `([^`]+)`/;

/** Text kimi-cli injects as a user message: checkpoint markers and system reminders, not what the user typed. */
export function isInjectedText(text: string): boolean {
  return /^\s*<system>CHECKPOINT \d+<\/system>\s*$/.test(text) || /^\s*<system-reminder>/.test(text);
}

function userMessage(state: KimiState, rec: Fields, line: number): void {
  const parts = kimiParts(rec.raw.content, 'content', state.warnings, state.unknownBlocks);
  if (parts.length === 0) {
    warnMissingContent(state.warnings, 'A Kimi user message');
    return;
  }
  const injected = parts.every((p) => p.type === 'text' && isInjectedText(p.text));
  pushMessage(state, line, 'user', null, parts, injected ? { injected: true } : undefined);
}

function assistantMessage(state: KimiState, rec: Fields, line: number): void {
  const parts = kimiParts(rec.raw.content, 'content', state.warnings, state.unknownBlocks);
  const calls = rec.raw.tool_calls ?? rec.raw.toolCalls;
  if (Array.isArray(calls))
    for (const call of calls) {
      const part = toolCallPart(call, state.warnings);
      if (part) parts.push(part);
    }
  if (parts.length === 0) {
    warnMissingContent(state.warnings, 'A Kimi assistant message');
    return;
  }
  pushMessage(state, line, 'assistant', null, parts).model = state.model;
}

function toolMessage(state: KimiState, rec: Fields, line: number): void {
  const callId = rec.string('tool_call_id') ?? rec.string('toolCallId');
  pushMessage(state, line, 'tool', null, [{ type: 'tool_result', callId, output: outputText(rec.raw.content, state.warnings), isError: null }]);
}

export function readContext(state: KimiState, records: readonly JsonLine[]): void {
  for (const { value, line } of records) {
    if (!isRecord(value)) {
      state.warnings.add('not_a_record', `Lines holding ${kindOfJson(value)} instead of a record object were skipped.`);
      continue;
    }
    const rec = new Fields(value, '', state.warnings);
    const role = rec.string('role');
    switch (role) {
      case '_system_prompt': {
        state.systemPrompt = rec.string('content');
        state.cwd ??= WORK_DIR.exec(state.systemPrompt ?? '')?.[1] ?? null;
        break;
      }
      case '_checkpoint':
        bump(state.otherRecords, '_checkpoint');
        break;
      case '_usage': {
        const count = rec.raw.token_count;
        // Older files recorded {input_tokens, output_tokens}; newer ones the context size as a number.
        if (typeof count === 'number') state.contextTokens = count;
        else if (isRecord(count) && typeof count.input_tokens === 'number')
          state.contextTokens = sumCounts(count.input_tokens, typeof count.output_tokens === 'number' ? count.output_tokens : 0);
        bump(state.otherRecords, '_usage');
        break;
      }
      case 'user':
        userMessage(state, rec, line);
        break;
      case 'assistant':
        assistantMessage(state, rec, line);
        break;
      case 'tool':
        toolMessage(state, rec, line);
        break;
      default:
        bump(state.unknownTypes, role === null ? 'record without a role' : `role ${role}`);
    }
  }
}
