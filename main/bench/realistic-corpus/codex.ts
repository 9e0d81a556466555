// Writes Codex CLI rollouts as the CLI does: session_meta with base instructions, turn contexts, reasoning, exec and apply_patch calls, cumulative token counts.
import { join } from 'node:path';
import type { Prng } from '../prng.ts';
import type { CorpusWriter, JsonlFile } from './corpus-writer.ts';
import { base64, callId, hex, uuid7 } from './ids.ts';
import type { TextSource } from './text-source.ts';
import { editOf, shellRun } from './tool-outputs.ts';

export const CODEX_FORMAT = 'codex';

export interface CodexPlan {
  /** `<root>/.codex/sessions`. */
  sessionsDir: string;
  cwd: string;
  branch: string;
  startMs: number;
  model: string;
  targetBytes: number;
}

interface Totals {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const pad = (n: number) => String(n).padStart(2, '0');

/** `rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl` in `YYYY/MM/DD/` (the CLI uses local time; the corpus uses UTC). */
function rolloutPath(dir: string, ms: number, id: string): string {
  const d = new Date(ms);
  const [y, m, day] = [d.getUTCFullYear(), pad(d.getUTCMonth() + 1), pad(d.getUTCDate())];
  return join(dir, String(y), m, day, `rollout-${y}-${m}-${day}T${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${pad(d.getUTCSeconds())}-${id}.jsonl`);
}

function add(file: JsonlFile, ms: number, type: string, payload: Record<string, unknown>): void {
  file.add({ timestamp: iso(ms), type, payload }, type === 'response_item' || type === 'event_msg' ? `${type}/${String(payload.type)}` : type);
}

export function writeCodexRollout(w: CorpusWriter, text: TextSource, rng: Prng, plan: CodexPlan): void {
  const id = uuid7(rng, plan.startMs);
  const file = w.jsonl(rolloutPath(plan.sessionsDir, plan.startMs, id), CODEX_FORMAT);
  let clock = plan.startMs;
  const at = (min: number, max: number) => (clock += rng.int(min, max));
  const doc = text.docs.length ? rng.pick(text.docs) : text.sourceFile(rng);
  add(file, at(0, 10), 'session_meta', {
    id,
    timestamp: iso(clock),
    cwd: plan.cwd,
    originator: 'codex_cli_rs',
    cli_version: rng.pick(['0.46.0', '0.98.0', '0.128.0']),
    source: 'cli',
    model_provider: 'openai',
    base_instructions: { text: doc.text.slice(0, 24_000) },
    git: { commit_hash: hex(rng, 40), branch: plan.branch, repository_url: `git@github.com:example/${plan.cwd.split('/').pop()}.git` },
  });
  let totals: Totals = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  while (file.bytes < plan.targetBytes) {
    const turn = uuid7(rng, clock);
    add(file, at(10_000, 900_000), 'turn_context', {
      turn_id: turn,
      cwd: plan.cwd,
      approval_policy: 'on-request',
      sandbox_policy: { type: 'workspace-write', writable_roots: [plan.cwd], network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false },
      model: plan.model,
      effort: rng.pick(['medium', 'high']),
      summary: 'auto',
    });
    add(file, at(1, 50), 'event_msg', { type: 'task_started', turn_id: turn, model_context_window: 258400 });
    const prompt = text.prose(rng, rng.int(40, 900));
    add(file, at(1, 20), 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] });
    add(file, at(1, 20), 'event_msg', { type: 'user_message', message: prompt, images: [] });
    const steps = rng.int(1, 9);
    for (let step = 0; step < steps; step++) {
      const summary = text.line(rng, 160);
      add(file, at(500, 20_000), 'response_item', {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: `**${summary.slice(0, 40)}**\n\n${summary}` }],
        content: null,
        encrypted_content: base64(rng, rng.int(800, 6000)),
      });
      add(file, at(1, 20), 'event_msg', { type: 'agent_reasoning', text: summary });
      const call = callId(rng);
      if (rng.next() < 0.25) {
        const f = text.sourceFile(rng);
        const edit = editOf(rng, text, f);
        // The model writes a hunk with its context lines, as a unified diff has them; Codex reports the diff it applied.
        const patch = ['*** Begin Patch', `*** Update File: ${f.path}`, '@@', ...edit.hunk.lines, '*** End Patch'].join('\n');
        add(file, at(200, 8000), 'response_item', { type: 'custom_tool_call', status: 'completed', call_id: call, name: 'apply_patch', input: patch });
        add(file, at(50, 2000), 'event_msg', {
          type: 'patch_apply_end',
          call_id: call,
          turn_id: turn,
          stdout: `Success. Updated the following files:\nM ${f.path}\n`,
          stderr: '',
          success: true,
          changes: { [`${plan.cwd}/${f.path}`]: { type: 'update', unified_diff: edit.hunk.lines.join('\n'), move_path: null } },
        });
        add(file, at(1, 50), 'response_item', {
          type: 'custom_tool_call_output',
          call_id: call,
          output: JSON.stringify({ output: `Success. Updated the following files:\nM ${f.path}\n`, metadata: { exit_code: 0, duration_seconds: 0 } }),
        });
      } else {
        const run = shellRun(rng, text, plan.cwd);
        add(file, at(200, 8000), 'response_item', {
          type: 'function_call',
          name: 'exec_command',
          arguments: JSON.stringify({ cmd: run.command, workdir: plan.cwd, yield_time_ms: 10000 }),
          call_id: call,
        });
        const wall = (rng.next() * 20).toFixed(4);
        add(file, at(100, 60_000), 'response_item', {
          type: 'function_call_output',
          call_id: call,
          output: `Chunk ID: ${hex(rng, 6)}\nWall time: ${wall} seconds\nProcess exited with code ${run.failed ? 1 : 0}\nOriginal token count: ${Math.round(run.output.length / 4)}\nOutput:\n${run.output}`,
        });
      }
      const last = {
        input_tokens: rng.int(8000, 120_000),
        cached_input_tokens: 0,
        output_tokens: rng.int(40, 3000),
        reasoning_output_tokens: rng.int(0, 2000),
        total_tokens: 0,
      };
      last.cached_input_tokens = Math.round(last.input_tokens * rng.next() * 0.9);
      last.total_tokens = last.input_tokens + last.output_tokens;
      totals = {
        input_tokens: totals.input_tokens + last.input_tokens,
        cached_input_tokens: totals.cached_input_tokens + last.cached_input_tokens,
        output_tokens: totals.output_tokens + last.output_tokens,
        reasoning_output_tokens: totals.reasoning_output_tokens + last.reasoning_output_tokens,
        total_tokens: totals.total_tokens + last.total_tokens,
      };
      add(file, at(1, 50), 'event_msg', {
        type: 'token_count',
        info: { total_token_usage: totals, last_token_usage: last, model_context_window: 258400 },
        rate_limits: { primary: { used_percent: rng.int(0, 90), window_minutes: 300 }, secondary: null },
      });
    }
    const answer = text.prose(rng, rng.int(150, 2500));
    add(file, at(500, 30_000), 'event_msg', { type: 'agent_message', message: answer });
    add(file, at(1, 20), 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }] });
    add(file, at(1, 50), 'event_msg', { type: 'task_complete', turn_id: turn, last_agent_message: answer });
  }
  file.close();
}
