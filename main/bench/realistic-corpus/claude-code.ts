// Writes Claude Code transcripts as the CLI does: split assistant lines sharing message.id and requestId, tool results with toolUseResult payloads, snapshots, titles, sub-agents.
import { join } from 'node:path';
import type { Prng } from '../prng.ts';
import type { CorpusWriter, JsonlFile } from './corpus-writer.ts';
import { base64, hex, messageId, requestId, toolUseId, uuid } from './ids.ts';
import type { TextSource } from './text-source.ts';
import { editOf, numbered, readWindow, shellRun } from './tool-outputs.ts';

export const CLAUDE_FORMAT = 'claude-code';

export interface ClaudeSessionPlan {
  /** `<root>/.claude/projects`. */
  projectsDir: string;
  cwd: string;
  branch: string;
  sessionId: string;
  startMs: number;
  model: string;
  targetBytes: number;
  /** Whether Task calls write sub-agent transcripts. */
  subagents: boolean;
}

const VERSIONS = ['2.0.14', '2.0.37', '2.1.9', '2.1.112', '2.1.150'];

/** A working directory as Claude Code names its project folder: every `/` and `.` a dash. */
export const projectFolder = (cwd: string) => cwd.replace(/[/.]/g, '-');

interface Chain {
  file: JsonlFile;
  rng: Prng;
  text: TextSource;
  plan: ClaudeSessionPlan;
  /** Fields every conversation record of this file starts with. */
  base: { isSidechain: boolean; userType: 'external'; cwd: string; sessionId: string; version: string; gitBranch: string; agentId?: string };
  parent: string | null;
  clock: number;
  /** Files edited so far (what file-history snapshots track), with their backup version. */
  edited: Map<string, number>;
  todos: Array<{ content: string; status: string; activeForm: string }>;
  /** Context size so far, for cache_read_input_tokens. */
  context: number;
  model: string;
  /** Sub-agents spawned from this file, when allowed. */
  spawn: ((prompt: string, description: string) => { agentId: string; report: string; tokens: number; tools: number }) | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

function tick(c: Chain, min: number, max: number): string {
  c.clock += c.rng.int(min, max);
  return iso(c.clock);
}

/** A conversation record: the fields Claude Code writes, in its order, then the record's own. */
function record(c: Chain, type: string, rest: Record<string, unknown>, min = 200, max = 4000): { uuid: string; rec: Record<string, unknown> } {
  const id = uuid(c.rng);
  const rec = { parentUuid: c.parent, ...c.base, type, ...rest, uuid: id, timestamp: tick(c, min, max) };
  c.parent = id;
  return { uuid: id, rec };
}

function usage(c: Chain, output: number): Record<string, unknown> {
  const created = c.rng.next() < 0.3 ? c.rng.int(200, 8000) : 0;
  c.context = Math.min(190_000, c.context + created + c.rng.int(50, 3000));
  return {
    input_tokens: c.rng.int(1, 12),
    cache_creation_input_tokens: created,
    cache_read_input_tokens: c.context,
    cache_creation: { ephemeral_5m_input_tokens: created, ephemeral_1h_input_tokens: 0 },
    output_tokens: output,
    service_tier: 'standard',
  };
}

interface ToolCall {
  block: Record<string, unknown>;
  /** The tool_result content and the record's toolUseResult. */
  result: { content: unknown; payload: unknown; isError: boolean };
}

function abs(c: Chain, relative: string): string {
  return `${c.plan.cwd}/${relative}`;
}

/** One tool call and its result, made from the text source. */
function toolCall(c: Chain): ToolCall {
  const { rng, text } = c;
  const id = toolUseId(rng);
  const r = rng.next();
  const call = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use', id, name, input });
  if (r < 0.3) {
    const file = text.sourceFile(rng);
    const path = abs(c, file.path);
    const { start, lines } = readWindow(rng, file);
    const input: Record<string, unknown> = { file_path: path };
    if (start > 0) Object.assign(input, { offset: start + 1, limit: lines.length });
    return {
      block: call('Read', input),
      result: {
        content: numbered(lines, start + 1),
        payload: {
          type: 'text',
          file: { filePath: path, content: lines.join('\n'), numLines: lines.length, startLine: start + 1, totalLines: file.lines.length },
        },
        isError: false,
      },
    };
  }
  if (r < 0.55) {
    const run = shellRun(rng, text, c.plan.cwd);
    const content = run.failed ? `Error: ${run.output}` : run.output;
    return {
      block: call('Bash', { command: run.command, description: run.description }),
      result: {
        content,
        payload: run.failed ? `Error: ${run.output}` : { stdout: run.output, stderr: '', interrupted: false, isImage: false },
        isError: run.failed,
      },
    };
  }
  if (r < 0.75) {
    const file = text.sourceFile(rng);
    const path = abs(c, file.path);
    const edit = editOf(rng, text, file);
    c.edited.set(path, (c.edited.get(path) ?? 0) + 1);
    return {
      block: call('Edit', { file_path: path, old_string: edit.oldString, new_string: edit.newString }),
      result: {
        content: `The file ${path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${edit.shown}`,
        payload: {
          filePath: path,
          oldString: edit.oldString,
          newString: edit.newString,
          originalFile: file.text,
          structuredPatch: [edit.hunk],
          userModified: false,
          replaceAll: false,
        },
        isError: false,
      },
    };
  }
  if (r < 0.79) {
    const file = text.sourceFile(rng);
    const path = abs(c, `${file.path.replace(/\.\w+$/, '')}.notes.md`);
    const content = text.prose(rng, rng.int(300, 4000));
    c.edited.set(path, (c.edited.get(path) ?? 0) + 1);
    return {
      block: call('Write', { file_path: path, content }),
      result: {
        content: `File created successfully at: ${path}`,
        payload: { type: 'create', filePath: path, content, structuredPatch: [], originalFile: null },
        isError: false,
      },
    };
  }
  if (r < 0.88) {
    const files = Array.from({ length: rng.int(0, 25) }, () => abs(c, text.sourceFile(rng).path));
    const pattern = (text.line(rng, 40).match(/[A-Za-z]{4,}/) ?? ['TODO'])[0];
    const content = files.length ? `Found ${files.length} file${files.length === 1 ? '' : 's'}\n${files.join('\n')}` : 'No files found';
    return {
      block: call('Grep', { pattern, path: c.plan.cwd, output_mode: 'files_with_matches' }),
      result: { content, payload: { mode: 'files_with_matches', filenames: files, numFiles: files.length }, isError: false },
    };
  }
  if (r < 0.95 || !c.spawn) {
    const oldTodos = c.todos;
    const newTodos = Array.from({ length: rng.int(2, 7) }, (_, i) => {
      const content = text.line(rng, 80);
      return { content, status: i === 0 ? 'in_progress' : rng.pick(['pending', 'completed']), activeForm: `Working on: ${content.slice(0, 40)}` };
    });
    c.todos = newTodos;
    return {
      block: call('TodoWrite', { todos: newTodos }),
      result: {
        content:
          'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
        payload: { oldTodos, newTodos },
        isError: false,
      },
    };
  }
  const description = text.line(rng, 50);
  const prompt = text.prose(rng, rng.int(200, 1500));
  const agent = c.spawn(prompt, description);
  const content = [{ type: 'text', text: agent.report }];
  return {
    block: call('Task', { description, prompt, subagent_type: 'general-purpose' }),
    result: {
      content,
      payload: {
        status: 'completed',
        prompt,
        agentId: agent.agentId,
        content,
        totalDurationMs: rng.int(5000, 400_000),
        totalTokens: agent.tokens,
        totalToolUseCount: agent.tools,
        usage: { input_tokens: rng.int(10, 500), output_tokens: rng.int(100, 4000) },
      },
      isError: false,
    },
  };
}

/** One request to the model: its content blocks, each on a line of its own with the same message id, request id and usage. */
function assistantTurn(c: Chain, blocks: Array<Record<string, unknown>>, final: boolean): string[] {
  const msg = messageId(c.rng);
  const req = requestId(c.rng);
  const chars = blocks.reduce((n, b) => n + JSON.stringify(b).length, 0);
  const u = usage(c, Math.max(1, Math.round(chars / 4)));
  const lines: string[] = [];
  blocks.forEach((block, i) => {
    const last = i === blocks.length - 1;
    const stop = last ? (final ? 'end_turn' : 'tool_use') : null;
    const message = { model: c.model, id: msg, type: 'message', role: 'assistant', content: [block], stop_reason: stop, stop_sequence: null, usage: u };
    const { uuid: id, rec } = record(c, 'assistant', { message, requestId: req }, 300, 9000);
    c.file.add(rec, 'assistant');
    lines.push(id);
  });
  return lines;
}

function toolResults(c: Chain, calls: ToolCall[], from: string): void {
  for (const call of calls) {
    const content = [{ tool_use_id: call.block.id, type: 'tool_result', content: call.result.content, ...(call.result.isError ? { is_error: true } : {}) }];
    const { rec } = record(c, 'user', { message: { role: 'user', content }, toolUseResult: call.result.payload, sourceToolAssistantUUID: from }, 100, 20_000);
    c.file.add(rec, 'user (tool_result)');
  }
}

function snapshot(c: Chain, messageUuid: string): void {
  const tracked: Record<string, unknown> = {};
  for (const [path, version] of c.edited) tracked[path] = { backupFileName: `${hex(c.rng, 16)}@v${version}`, version, backupTime: iso(c.clock) };
  c.file.add(
    {
      type: 'file-history-snapshot',
      messageId: messageUuid,
      snapshot: { messageId: messageUuid, trackedFileBackups: tracked, timestamp: iso(c.clock) },
      isSnapshotUpdate: false,
    },
    'file-history-snapshot',
  );
}

/** A person's prompt, then the model working through tool calls to a final answer. */
function exchange(c: Chain, prompt: string): void {
  const { rng, text } = c;
  const content = rng.next() < 0.15 ? [{ type: 'text', text: prompt }] : prompt;
  const { uuid: promptUuid, rec } = record(
    c,
    'user',
    { message: { role: 'user', content }, ...(c.base.isSidechain ? {} : { thinkingMetadata: { level: 'none', disabled: false, triggers: [] }, todos: [] }) },
    20_000,
    600_000,
  );
  if (!c.base.isSidechain) snapshot(c, promptUuid);
  c.file.add(rec, 'user (prompt)');
  const steps = rng.int(1, 8);
  for (let step = 0; step < steps; step++) {
    const final = step === steps - 1;
    const blocks: Array<Record<string, unknown>> = [];
    if (rng.next() < (step === 0 ? 0.7 : 0.35))
      blocks.push({ type: 'thinking', thinking: text.prose(rng, rng.int(100, 2500)), signature: base64(rng, rng.int(300, 1400)) });
    if (final || rng.next() < 0.5) blocks.push({ type: 'text', text: final ? text.prose(rng, rng.int(200, 3000)) : text.line(rng, 200) });
    const calls = final ? [] : Array.from({ length: rng.next() < 0.8 ? 1 : rng.int(2, 4) }, () => toolCall(c));
    for (const call of calls) blocks.push(call.block);
    const lineIds = assistantTurn(c, blocks, final);
    toolResults(c, calls, lineIds[lineIds.length - 1] as string);
  }
  if (!c.base.isSidechain && rng.next() < 0.3) {
    const { rec: sys } = record(c, 'system', { subtype: 'turn_duration', durationMs: rng.int(3000, 900_000), isMeta: false }, 10, 100);
    c.file.add(sys, 'system (turn_duration)');
  }
}

/** A sub-agent's transcript in `<session>/subagents/agent-<id>.jsonl`, with its meta file beside it. */
function writeSubagent(
  w: CorpusWriter,
  parent: Chain,
  prompt: string,
  description: string,
  bytes: number,
): { agentId: string; report: string; tokens: number; tools: number } {
  const { rng, text, plan } = parent;
  const agentId = `a${hex(rng, 16)}`;
  const dir = join(plan.projectsDir, projectFolder(plan.cwd), plan.sessionId, 'subagents');
  const file = w.jsonl(join(dir, `agent-${agentId}.jsonl`), CLAUDE_FORMAT);
  const c: Chain = {
    file,
    rng,
    text,
    plan,
    base: { ...parent.base, isSidechain: true, agentId },
    parent: null,
    clock: parent.clock,
    edited: new Map(),
    todos: [],
    context: 8000,
    model: rng.next() < 0.5 ? 'claude-haiku-4-5-20251001' : parent.model,
    spawn: null,
  };
  exchange(c, prompt);
  while (file.bytes < bytes) exchange(c, text.prose(rng, rng.int(60, 400)));
  file.close();
  w.companion(join(dir, `agent-${agentId}.meta.json`), CLAUDE_FORMAT, { agentType: 'general-purpose', description }, file.path);
  parent.clock = c.clock;
  return { agentId, report: text.prose(rng, rng.int(300, 2500)), tokens: rng.int(5000, 120_000), tools: rng.int(1, 40) };
}

/** One session file (and its sub-agents) of about `plan.targetBytes`. */
export function writeClaudeSession(w: CorpusWriter, text: TextSource, rng: Prng, plan: ClaudeSessionPlan): void {
  const file = w.jsonl(join(plan.projectsDir, projectFolder(plan.cwd), `${plan.sessionId}.jsonl`), CLAUDE_FORMAT);
  const c: Chain = {
    file,
    rng,
    text,
    plan,
    base: { isSidechain: false, userType: 'external', cwd: plan.cwd, sessionId: plan.sessionId, version: rng.pick(VERSIONS), gitBranch: plan.branch },
    parent: null,
    clock: plan.startMs,
    edited: new Map(),
    todos: [],
    context: 12_000,
    model: plan.model,
    spawn: null,
  };
  if (plan.subagents) {
    let left = 3;
    c.spawn = (prompt, description) => {
      // At most three sub-agents a session, each a fraction of it; past that a Task call reports without a transcript.
      if (left-- <= 0) return { agentId: `a${hex(rng, 16)}`, report: text.prose(rng, 400), tokens: 0, tools: 0 };
      return writeSubagent(w, c, prompt, description, Math.min(4 << 20, Math.round(plan.targetBytes * (0.05 + rng.next() * 0.25))));
    };
  }
  // Older CLIs put a resumed conversation's summaries at the top; newer ones write titles and modes as records.
  if (rng.next() < 0.12) for (let i = rng.int(1, 3); i > 0; i--) file.add({ type: 'summary', summary: text.line(rng, 90), leafUuid: uuid(rng) }, 'summary');
  if (rng.next() < 0.3)
    file.add({ type: 'permission-mode', permissionMode: rng.pick(['default', 'acceptEdits', 'plan']), sessionId: plan.sessionId }, 'permission-mode');
  let first = true;
  while (file.bytes < plan.targetBytes) {
    const prompt = text.prose(rng, rng.int(40, first ? 1500 : 700));
    exchange(c, prompt);
    if (first && rng.next() < 0.6) file.add({ type: 'ai-title', aiTitle: text.line(rng, 60), sessionId: plan.sessionId }, 'ai-title');
    first = false;
  }
  if (rng.next() < 0.04) file.add({ type: 'custom-title', customTitle: text.line(rng, 50), sessionId: plan.sessionId }, 'custom-title');
  if (rng.next() < 0.4) file.add({ type: 'last-prompt', lastPrompt: text.line(rng, 200), sessionId: plan.sessionId }, 'last-prompt');
  file.close();
}
