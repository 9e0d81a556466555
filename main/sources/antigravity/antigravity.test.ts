// Tests for the Antigravity reader: step kinds, call/result pairing, model changes, brain artifacts (own and IDE folder), paths.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Head } from '../head.ts';
import { readers } from '../registry.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { extractIndexText } from '../../search-index/index-text.ts';
import { antigravityReader, readAntigravityFile } from './antigravity.ts';
import { antigravityRoots } from './antigravity-layout.ts';
import { parseAntigravity, type AntigravityContext } from './antigravity-session.ts';
import { modelFromSettings, unwrapUserInput } from './antigravity-steps.ts';

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'sv-antigravity-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const NOW = Date.parse('2026-07-01T00:00:00Z');
const ctx = (over: Partial<AntigravityContext> = {}): AntigravityContext => ({
  path: '/x/transcript.jsonl',
  size: 1,
  mtimeMs: 0,
  warnings: [],
  now: NOW,
  conversationId: 'c1',
  brain: { artifacts: [], files: [] },
  ...over,
});
const step = (line: number, value: Record<string, unknown>) => ({
  value: { step_index: line, status: 'DONE', created_at: `2026-06-26T21:16:${String(10 + line).padStart(2, '0')}Z`, ...value },
  line,
});
const planner = (line: number, calls: string[], more: Record<string, unknown> = {}) =>
  step(line, {
    source: 'MODEL',
    type: 'PLANNER_RESPONSE',
    tool_calls: calls.map((name) => ({ name, args: { Path: '"/tmp/a"', Lines: '12', Raw: 'not json' } })),
    ...more,
  });
const result = (line: number, type: string, content: string, more: Record<string, unknown> = {}) => step(line, { source: 'MODEL', type, content, ...more });

describe('Antigravity steps', () => {
  it('pairs each result step with the oldest open call, decodes JSON-encoded arguments and keeps errors', () => {
    const s = valid(
      parseAntigravity(
        [
          step(1, {
            source: 'USER_EXPLICIT',
            type: 'USER_INPUT',
            content: '<USER_REQUEST>\nfix it\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\ncwd /repo\n</ADDITIONAL_METADATA>',
          }),
          planner(2, ['view_file', 'run_command'], { thinking: 'look first' }),
          result(3, 'VIEW_FILE', 'line 1'),
          result(4, 'RUN_COMMAND', 'boom', { status: 'ERROR' }),
          result(5, 'TELEPORT', 'odd'),
          step(6, { source: 'ORACLE', type: 'VISION', content: 'a dream' }),
          step(7, { source: 'SYSTEM', type: 'CONVERSATION_HISTORY' }),
          planner(8, [], { content: 'Done.' }),
        ],
        ctx(),
      ),
    );
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => p.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['thinking', 'tool_call', 'tool_call']],
      ['tool', ['tool_result']],
      ['tool', ['tool_result']],
      ['tool', ['tool_result']],
      ['system', ['text']],
      ['assistant', ['text']],
    ]);
    expect(s.messages[1]!.parts[1]).toEqual({
      type: 'tool_call',
      callId: 'step-2-0',
      name: 'view_file',
      input: { Path: '/tmp/a', Lines: 12, Raw: 'not json' },
    });
    expect(s.messages.slice(2, 5).map((m) => m.parts[0])).toEqual([
      { type: 'tool_result', callId: 'step-2-0', output: 'line 1', isError: false },
      { type: 'tool_result', callId: 'step-2-1', output: 'boom', isError: true },
      { type: 'tool_result', callId: null, output: 'odd', isError: false },
    ]);
    expect(s.messages[0]!.annotations).toEqual({
      stepType: 'USER_INPUT',
      source: 'USER_EXPLICIT',
      wrappers: ['USER_REQUEST', 'ADDITIONAL_METADATA'],
      metadata: 'cwd /repo',
    });
    expect(extractIndexText(s).more.split(/[^\p{L}\p{N}]+/u)).toEqual(expect.arrayContaining(['REQUEST', 'EXPLICIT', 'ADDITIONAL']));
    expect(s.warnings.map((w) => w.message)).toEqual([
      'Unknown Antigravity step "VISION" (1 step); its content is shown as a system note.',
      'Antigravity step "TELEPORT" (1 step) is not a known tool step; it is shown as a tool result.',
    ]);
    expect(s.extra).toEqual({ historyMarkers: 1 });
  });

  it("reads the user request and the model from the CLI's wrappers", () => {
    expect(unwrapUserInput('plain words')).toEqual({ request: 'plain words', settings: null, metadata: null, wrappers: [] });
    expect(unwrapUserInput('do it\n<USER_SETTINGS_CHANGE>\nx\n</USER_SETTINGS_CHANGE>').request).toBe('do it');
    expect(modelFromSettings('The user changed setting `Model Selection` from Gemini 3 Pro to Claude Sonnet 4.5 (Thinking).')).toBe(
      'Claude Sonnet 4.5 (Thinking)',
    );
    expect(modelFromSettings('The user changed setting `Theme` from dark to light.')).toBeNull();
  });

  it('is active while a step is not done and the transcript is being written now', () => {
    const t = new Date(NOW - 30_000).toISOString();
    const running = [{ value: { step_index: 1, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'RUNNING', created_at: t, content: 'working' }, line: 1 }];
    expect(parseAntigravity(running, ctx({ mtimeMs: NOW - 10_000 })).status).toBe('active');
    expect(parseAntigravity(running, ctx({ mtimeMs: NOW - 3600_000 })).status).toBe('closed');
  });

  it('recognises a transcript by its steps and refuses a file of no steps', async () => {
    expect(antigravityReader.recognizes?.(new Head('{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT"}\n', true))).toBe(true);
    expect(antigravityReader.recognizes?.(new Head('{"type":"user","content":"x"}\n', true))).toBe(false);
    const dir = join(home, 'bad');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'transcript.jsonl'), '');
    expect((await failure(() => readAntigravityFile(join(dir, 'transcript.jsonl')))).code).toBe('empty_file');
  });
});

describe('Antigravity brain artifacts', () => {
  it('attaches the Markdown artifacts of its own brain folder and of the IDE folder with the same id, never a link out', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    const cli = join(home, '.gemini/antigravity-cli/brain', id);
    const ide = join(home, '.gemini/antigravity/brain', id);
    mkdirSync(join(cli, '.system_generated/logs'), { recursive: true });
    mkdirSync(ide, { recursive: true });
    const transcript = join(cli, '.system_generated/logs/transcript.jsonl');
    writeFileSync(
      transcript,
      `${JSON.stringify({ step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: '2026-06-26T21:16:16Z', content: 'go' })}\n`,
    );
    writeFileSync(join(cli, 'task.md'), '# Task\n- [x] go');
    writeFileSync(join(ide, 'walkthrough.md'), '# Walkthrough');
    writeFileSync(join(home, 'secret.md'), "not the session's");
    symlinkSync(join(home, 'secret.md'), join(ide, 'implementation_plan.md'));
    const s = valid(await readAntigravityFile(transcript));
    expect(s.key).toBe(`antigravity:${id}`);
    expect(s.artifacts).toEqual([
      { path: 'task.md', kind: 'markdown', resolvedPath: join(cli, 'task.md'), size: 15 },
      { path: `antigravity/brain/${id}/walkthrough.md`, kind: 'markdown', resolvedPath: join(ide, 'walkthrough.md'), size: 13 },
    ]);
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'artifact', 'artifact']);
    // The artifacts are the conversation's own files, never sessions of their own.
    for (const path of [join(cli, 'task.md'), join(ide, 'walkthrough.md')]) {
      expect(readers.filter((r) => r.claims(path)).map((r) => r.format)).toEqual([]);
    }
    expect(antigravityReader.companion?.(join(cli, '.system_generated/logs/other.jsonl'))).toBe(true);
  });
});

describe('Antigravity full transcript', () => {
  it('reads the steps from transcript_full.jsonl when it lies beside the clipped transcript, and keeps both files', async () => {
    const id = '22222222-2222-4333-8444-555555555555';
    const logs = join(home, '.gemini/antigravity-cli/brain', id, '.system_generated/logs');
    mkdirSync(logs, { recursive: true });
    const at = '2026-06-26T21:16:16Z';
    const answer = `The directory holds ${'many files, '.repeat(40)}and a README.`;
    const line = (content: string, clipped: boolean) =>
      JSON.stringify({
        step_index: 1,
        source: 'MODEL',
        type: 'PLANNER_RESPONSE',
        status: 'DONE',
        created_at: at,
        content,
        ...(clipped ? { truncated_fields: ['content'] } : {}),
      });
    const user = JSON.stringify({ step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: at, content: 'What is here?' });
    const transcript = join(logs, 'transcript.jsonl');
    writeFileSync(transcript, `${user}\n${line(answer.slice(0, 40), true)}\n`);
    writeFileSync(join(logs, 'transcript_full.jsonl'), `${user}\n${line(answer, false)}\n`);
    const s = valid(await readAntigravityFile(transcript));
    expect(s.messages.map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : p.type)))).toEqual([['What is here?'], [answer]]);
    expect(s.messages[1]?.origin).toEqual({ fileIndex: 1, line: 2, pointer: null });
    expect(s.sourceFiles.map((f) => [f.path, f.role])).toEqual([
      [transcript, 'primary'],
      [join(logs, 'transcript_full.jsonl'), 'transcript'],
    ]);
    // A conversation whose folder holds only the full transcript is read from it, under the same key.
    rmSync(transcript);
    const alone = valid(await readAntigravityFile(join(logs, 'transcript_full.jsonl')));
    expect([alone.key, alone.messages.length, alone.sourceFiles.map((f) => f.role)]).toEqual([`antigravity:${id}`, 2, ['primary']]);
    expect(alone.messages[1]?.parts).toEqual([{ type: 'text', text: answer }]);
  });
});

describe('Antigravity prompt log', () => {
  // The log's line shape (display, timestamp in ms, workspace, conversationId) as jhlee0409/claude-code-history-viewer's
  // antigravity_cli.rs documents it; the matching of lines without a conversation id as kenn-io/agentsview's does.
  it('takes the project from the workspace history.jsonl names for the conversation, or from the one unnamed line with its first prompt', async () => {
    const cliHome = join(home, 'log-home', '.gemini', 'antigravity-cli');
    const at = '2026-06-26T21:16:16Z';
    const transcriptOf = (id: string, prompt: string) => {
      const logs = join(cliHome, 'brain', id, '.system_generated', 'logs');
      mkdirSync(logs, { recursive: true });
      const path = join(logs, 'transcript.jsonl');
      writeFileSync(
        path,
        JSON.stringify({ step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: at, content: prompt }) + '\n',
      );
      return path;
    };
    const ms = Date.parse(at);
    mkdirSync(cliHome, { recursive: true });
    writeFileSync(
      join(cliHome, 'history.jsonl'),
      [
        { display: 'Fix the parser', timestamp: ms, workspace: '/work/parser', conversationId: 'named-1' },
        { display: 'Fix the parser again', timestamp: ms + 5000, workspace: '/work/elsewhere', conversationId: 'named-1' },
        { display: 'Tidy   the README', timestamp: ms + 2000, workspace: '/work/docs' },
        { display: 'Tidy the readme', timestamp: ms + 120_000, workspace: '/work/too-late' },
        { display: 'Same words twice', timestamp: ms + 1000, workspace: '/work/a' },
        { display: 'Same words twice', timestamp: ms - 1000, workspace: '/work/b' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\nnot json\n',
    );
    const named = valid(await readAntigravityFile(transcriptOf('named-1', 'Fix the parser')));
    expect(named.project).toEqual({ path: '/work/parser', name: 'parser', branch: null, headCommit: null });
    const matched = valid(await readAntigravityFile(transcriptOf('unnamed-2', 'Tidy the README')));
    expect(matched.project.path).toBe('/work/docs');
    // Two lines fit equally well: no project rather than a guess.
    const tied = valid(await readAntigravityFile(transcriptOf('unnamed-3', 'Same words twice')));
    expect(tied.project.path).toBeNull();
    // The log is not one of the conversation's files: it holds every other conversation's prompts too.
    expect(named.sourceFiles.map((f) => f.role)).toEqual(['primary']);
  });
});

describe('Antigravity paths', () => {
  it.each([
    ['/home/u/.gemini/antigravity-cli/brain/00000000-0000-4000-8000-00000000a902/.system_generated/logs/transcript.jsonl', true],
    // Claimed, and left to transcript.jsonl while that lies beside it (catalogue/walk-rules.ts).
    ['/home/u/.gemini/antigravity-cli/brain/00000000-0000-4000-8000-00000000a902/.system_generated/logs/transcript_full.jsonl', true],
    ['/home/u/.gemini/antigravity/brain/00000000-0000-4000-8000-00000000a901/task.md', false],
    ['/home/u/logs/transcript.jsonl', false],
  ])('%s claimed: %s', (path, claimed) => expect(antigravityReader.claims(path)).toBe(claimed));

  it('looks in ~/.gemini/antigravity-cli/brain and resumes with agy --conversation', () => {
    expect(antigravityRoots({}, '/home/u')).toEqual(['/home/u/.gemini/antigravity-cli/brain']);
    expect(antigravityReader.resumeCommand({ id: 'abc', isSubAgent: false })).toBe('agy --conversation abc');
  });
});
