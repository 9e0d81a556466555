// A command's combined output as exec_command_end reports it (aggregated_output), kept in its operation's detail only where it holds words the call's result does not.
import type { Message, Operation } from '../../../shared/session.ts';
import { detailOf } from './codex-state.ts';

/** One exec_command_end's combined stdout and stderr, waiting for the rollout's results to be read. */
export interface ExecOutput {
  op: Operation;
  callId: string | null;
  text: string;
}

const WORD = /[\p{L}\p{N}_]+/gu;

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(WORD) ?? []);
}

/**
 * Most often the call's result (function_call_output) repeats the command's output, and nothing is kept twice. It
 * differs where Codex cut one of them differently (the model saw the head of a long output, the event kept its head
 * and tail), or where the result went missing: then the event's words are the only record of them, and the
 * operation's detail keeps the output as `output`.
 */
export function keepExecOutputs(outputs: readonly ExecOutput[], messages: readonly Message[]): void {
  if (outputs.length === 0) return;
  const results = new Map<string, string[]>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool_result' || part.callId === null) continue;
      const list = results.get(part.callId) ?? [];
      list.push(part.output);
      results.set(part.callId, list);
    }
  }
  for (const { op, callId, text } of outputs) {
    const said = callId === null ? [] : (results.get(callId) ?? []);
    if (said.some((output) => output.includes(text))) continue;
    const known = words(said.join('\n'));
    if ([...words(text)].every((w) => known.has(w))) continue;
    detailOf(op).output = text;
  }
}
