// Writes Gemini CLI chats as the CLI does: a JSON document of messages with thoughts, token counts and tool calls carrying their results, or the newer JSONL with $set patches.
import { join } from 'node:path';
import type { Prng } from '../prng.ts';
import type { CorpusWriter } from './corpus-writer.ts';
import { hex } from './ids.ts';
import type { TextSource } from './text-source.ts';
import { numbered, readWindow, shellRun } from './tool-outputs.ts';

export const GEMINI_FORMAT = 'gemini';

export interface GeminiPlan {
  /** `<root>/.gemini/tmp`. */
  tmpDir: string;
  cwd: string;
  startMs: number;
  model: string;
  targetBytes: number;
  /** The newer append-only `.jsonl` form. */
  jsonl: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

function toolCall(rng: Prng, text: TextSource, cwd: string, ms: number): Record<string, unknown> {
  const id = `${rng.pick(['read_file', 'run_shell_command'])}-${ms}-${hex(rng, 12)}`;
  if (id.startsWith('read_file')) {
    const file = text.sourceFile(rng);
    const { start, lines } = readWindow(rng, file);
    const output = numbered(lines, start + 1);
    return {
      id,
      name: 'read_file',
      args: { absolute_path: `${cwd}/${file.path}` },
      result: [{ functionResponse: { id, name: 'read_file', response: { output } } }],
      status: 'success',
      timestamp: iso(ms),
      resultDisplay: '',
      displayName: 'ReadFile',
      description: '',
      renderOutputAsMarkdown: true,
    };
  }
  const run = shellRun(rng, text, cwd);
  const output = `Command: ${run.command}\nDirectory: (root)\nOutput: ${run.output}\nError: (none)\nExit Code: ${run.failed ? 1 : 0}\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: ${rng.int(1000, 99999)}`;
  return {
    id,
    name: 'run_shell_command',
    args: { command: run.command, description: run.description },
    result: [{ functionResponse: { id, name: 'run_shell_command', response: { output } } }],
    status: 'success',
    timestamp: iso(ms),
    resultDisplay: run.output,
    displayName: 'Shell',
    description: run.description,
    renderOutputAsMarkdown: false,
  };
}

export function writeGeminiChat(w: CorpusWriter, text: TextSource, rng: Prng, plan: GeminiPlan): void {
  const projectHash = hex(rng, 64);
  const short = hex(rng, 8);
  const d = new Date(plan.startMs);
  const stamp = `${iso(plan.startMs).slice(0, 10)}T${String(d.getUTCHours()).padStart(2, '0')}-${String(d.getUTCMinutes()).padStart(2, '0')}`;
  const path = join(plan.tmpDir, projectHash, 'chats', `session-${stamp}-${short}.${plan.jsonl ? 'jsonl' : 'json'}`);
  const sessionId = `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-8${hex(rng, 3)}-${hex(rng, 12)}`;
  let clock = plan.startMs;
  const messages: Array<Record<string, unknown>> = [];
  const types: string[] = [];
  let size = 400;
  while (size < plan.targetBytes) {
    clock += rng.int(20_000, 600_000);
    const prompt = text.prose(rng, rng.int(40, 800));
    messages.push({ id: hex(rng, 16), timestamp: iso(clock), type: 'user', content: plan.jsonl ? [{ text: prompt }] : prompt });
    types.push('user');
    size += prompt.length + 120;
    for (let step = rng.int(1, 5); step > 0; step--) {
      clock += rng.int(1000, 60_000);
      const calls = step > 1 ? [toolCall(rng, text, plan.cwd, clock)] : [];
      const content = step > 1 ? '' : text.prose(rng, rng.int(100, 2000));
      const thoughts = rng.next() < 0.6 ? [{ subject: text.line(rng, 40), description: text.prose(rng, rng.int(80, 800)), timestamp: iso(clock) }] : [];
      const input = rng.int(2000, 200_000);
      const output = rng.int(20, 3000);
      const message = {
        id: hex(rng, 16),
        timestamp: iso(clock),
        type: 'gemini',
        content,
        thoughts,
        tokens: { input, output, cached: Math.round(input * 0.6), thoughts: rng.int(0, 2000), tool: 0, total: input + output },
        model: plan.model,
        ...(calls.length ? { toolCalls: calls } : {}),
      };
      messages.push(message);
      types.push(calls.length ? 'gemini (tool call)' : 'gemini');
      size += JSON.stringify(message).length;
    }
  }
  const header = { sessionId, projectHash, startTime: iso(plan.startMs), lastUpdated: iso(clock), kind: 'main' };
  if (!plan.jsonl) {
    w.document(
      path,
      GEMINI_FORMAT,
      { ...header, messages },
      types.map((t) => `message: ${t}`),
      true,
    );
    return;
  }
  const file = w.jsonl(path, GEMINI_FORMAT);
  file.add(header, 'header');
  for (const [i, m] of messages.entries()) {
    file.add(m, `message: ${types[i]}`);
    file.add({ $set: { lastUpdated: m.timestamp } }, '$set');
  }
  file.close();
}
