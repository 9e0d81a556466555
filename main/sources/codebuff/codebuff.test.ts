// Tests for the Codebuff reader: clock-time messages, block kinds, nested sub-agent runs, credits and tokens, companions and paths.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { codebuffReader, codebuffRoots, readCodebuffFile } from './codebuff.ts';
import { parseCodebuffChat, type CodebuffContext } from './codebuff-session.ts';
import { chatStart, CodebuffClock } from './codebuff-time.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sv-codebuff-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CHAT = '/h/.config/manicode/projects/app/chats/2026-03-01T10-00-00.000Z/chat-messages.json';
const ctx = (over: Partial<CodebuffContext> = {}): CodebuffContext => ({
  path: CHAT,
  size: 1,
  mtimeMs: 0,
  warnings: [],
  now: Date.parse('2026-04-01T00:00:00Z'),
  companions: { runState: null, chatMeta: null, files: [] },
  ...over,
});
const parse = (doc: unknown, over: Partial<CodebuffContext> = {}) => valid(parseCodebuffChat(doc, ctx(over)));
const user = (id: string, content: string, timestamp = '2026-03-01T10:00:00Z') => ({ id, variant: 'user', content, timestamp });

describe('Codebuff times', () => {
  it('reads the chat id as its start and puts bare clock times on its local day, rolling over at midnight', () => {
    const start = new Date(2026, 6, 16, 23, 58);
    const id = start.toISOString().replace(/:/g, '-');
    expect(chatStart(id)?.getTime()).toBe(start.getTime());
    const clock = new CodebuffClock(chatStart(id));
    expect(clock.resolve('11:58 PM').iso).toBe(new Date(2026, 6, 16, 23, 58).toISOString());
    expect(clock.resolve('12:01 AM').iso).toBe(new Date(2026, 6, 17, 0, 1).toISOString());
    expect(clock.resolve('03:04 PM').iso).toBe(new Date(2026, 6, 17, 15, 4).toISOString());
    expect(clock.resolve('2026-07-20T08:00:00Z')).toEqual({ iso: '2026-07-20T08:00:00.000Z', unreadable: false });
    expect(clock.resolve('teatime')).toEqual({ iso: null, unreadable: true });
    expect(chatStart('not-a-time')).toBeNull();
  });
});

describe('Codebuff blocks', () => {
  it('turns text, reasoning, tools, plans, questions and mode changes into messages, tool results after their calls', () => {
    const s = parse([
      { ...user('u1', 'Refactor auth'), attachments: [{ filename: 'a.png', path: '/tmp/a.png' }] },
      {
        id: 'a1',
        variant: 'ai',
        content: '',
        timestamp: '2026-03-01T10:01:00Z',
        blocks: [
          { type: 'text', textType: 'reasoning', content: 'think first' },
          { type: 'text', textType: 'text', content: 'Reading the files.' },
          { type: 'tool', toolCallId: 't1', toolName: 'read_files', input: { paths: ['auth.ts'] }, output: 'export const x = 1' },
          { type: 'tool', toolCallId: 't2', toolName: 'run_terminal_command', input: { command: 'npm test' }, output: 'FAIL', lifecycle: 'failed' },
          { type: 'plan', content: '1. split\n2. test' },
          {
            type: 'ask-user',
            toolCallId: 'q',
            questions: [{ question: 'Keep the old API?', options: [] }],
            answers: [{ questionIndex: 0, selectedOption: 'Yes' }],
          },
          { type: 'mode-divider', mode: 'MAX' },
          { type: 'image', image: 'iVBO', mediaType: 'image/png' },
          { type: 'doctor', projectRoot: '/x' },
          { type: 'teleport' },
        ],
      },
    ]);
    expect(s.messages.map((m) => [m.id, m.role, m.parts.map((p) => p.type)])).toEqual([
      ['u1', 'user', ['text', 'image']],
      ['a1', 'assistant', ['thinking', 'text', 'tool_call', 'tool_call']],
      ['a1#2', 'tool', ['tool_result', 'tool_result']],
      ['a1#3', 'assistant', ['text', 'text']],
      ['a1#4', 'system', ['text']],
      ['a1#5', 'assistant', ['image']],
    ]);
    expect(s.messages[2]!.parts).toEqual([
      { type: 'tool_result', callId: 't1', output: 'export const x = 1', isError: null },
      { type: 'tool_result', callId: 't2', output: 'FAIL', isError: true },
    ]);
    expect(s.messages[3]!.parts).toEqual([
      { type: 'text', text: 'Plan:\n1. split\n2. test' },
      { type: 'text', text: 'Question: Keep the old API?\nAnswer: Yes' },
    ]);
    expect(s.messages[4]!.parts).toEqual([{ type: 'text', text: 'Mode: MAX' }]);
    expect(s.extra.commandPanels).toBe(1);
    expect(s.warnings.map((w) => w.code)).toEqual(['unknown_block_type']);
  });

  it('nests a sub-agent run under its agentId, with its prompt, its own tools and the call that spawned it', () => {
    const s = parse([
      user('u1', 'Find the bug'),
      {
        id: 'a1',
        variant: 'ai',
        content: '',
        timestamp: '2026-03-01T10:02:00Z',
        blocks: [
          { type: 'tool', toolCallId: 'spawn1', toolName: 'spawn_agents', input: { agents: [{ agent_type: 'file-picker' }] } },
          {
            type: 'agent',
            agentId: 'fp-1',
            agentName: 'File Picker',
            agentType: 'file-picker',
            status: 'complete',
            spawnToolCallId: 'spawn1',
            initialPrompt: 'find auth files',
            content: 'auth.ts',
            blocks: [
              { type: 'tool', toolCallId: 'g1', toolName: 'code_search', input: { pattern: 'auth' }, output: 'auth.ts:1' },
              { type: 'text', content: 'auth.ts is the one.' },
            ],
          },
          { type: 'agent', agentId: 'rev-1', agentType: 'reviewer', status: 'complete', content: 'Looks fine.' },
          { type: 'text', content: 'The bug is in auth.ts.' },
        ],
      },
    ]);
    expect(s.messages.map((m) => [m.role, m.agentId, m.parts.map((p) => p.type)])).toEqual([
      ['user', null, ['text']],
      ['assistant', null, ['tool_call']],
      ['user', 'fp-1', ['text']],
      ['assistant', 'fp-1', ['tool_call']],
      ['tool', 'fp-1', ['tool_result']],
      ['assistant', 'fp-1', ['text']],
      ['assistant', 'rev-1', ['text']],
      ['assistant', null, ['text']],
    ]);
    expect(s.messages[2]!.annotations).toEqual({ agentType: 'file-picker', agentName: 'File Picker', status: 'complete', parentToolCallId: 'spawn1' });
    expect(s.messages[6]!.annotations).toEqual({ agentType: 'reviewer', status: 'complete' });
    expect(s.extra.subAgentRuns).toBe(2);
    // The title is the user's prompt, never a sub-agent's.
    expect(s.title).toBe('Find the bug');
  });
});

describe('Codebuff tokens, credits and companions', () => {
  it("puts a reply's tokens and credits on its last main-agent message; credits are cents", () => {
    const s = parse([
      user('u1', 'go'),
      {
        id: 'a1',
        variant: 'ai',
        content: 'done',
        timestamp: '2026-03-01T10:01:00Z',
        credits: 3,
        metadata: { model: 'anthropic/claude-sonnet-4', usage: { inputTokens: 100, outputTokens: 50, cacheCreationInputTokens: 20, cacheReadInputTokens: 10 } },
      },
      { id: 'e1', variant: 'error', content: 'Rate limited', timestamp: '2026-03-01T10:02:00Z' },
    ]);
    expect(s.messages[1]).toMatchObject({
      model: 'anthropic/claude-sonnet-4',
      usage: { input: 100, output: 50, cacheRead: 10, cacheWrite: 20, reasoning: 0 },
      cost: { usd: 0.03, estimated: false },
    });
    expect(s.messages[2]).toMatchObject({ role: 'system', annotations: { note: 'error' } });
    expect(s.cost).toEqual({ usd: 0.03, estimated: false });
    expect(s.model?.name).toBe('anthropic/claude-sonnet-4');
  });

  it('falls back to run-state credits, and says when chat-meta.json disagrees with the chat', () => {
    const s = parse([user('u1', 'go')], {
      companions: {
        runState: { agentType: 'base2', contextTokenCount: 10, creditsUsed: 250, cwd: null },
        chatMeta: { messageCount: 4, firstPrompt: 'go' },
        files: [],
      },
    });
    expect(s.cost).toEqual({ usd: 2.5, estimated: false });
    expect(s.project).toEqual({ path: null, name: 'app', branch: null, headCommit: null });
    expect(s.warnings.map((w) => w.code)).toEqual(['sources_disagree']);
  });

  it('warns about unknown variants, unreadable times and empty replies; refuses a chat that is not a list', async () => {
    const s = parse([user('u1', 'go', 'whenever'), { id: 'x', variant: 'oracle', content: 'x' }, { id: 'a', variant: 'ai', content: '' }]);
    expect(s.warnings.map((w) => w.code).sort()).toEqual(['bad_timestamp', 'missing_content', 'unknown_record_type']);
    expect((await failure(() => parseCodebuffChat({ messages: [] }, ctx()))).code).toBe('wrong_shape');
  });

  it('reads the chat folder from disk, companions included, and names a broken companion', async () => {
    const dir = join(root, '.config/manicode/projects/app/chats/2026-03-01T10-00-00.000Z');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'chat-messages.json'), JSON.stringify([user('u1', 'hello there')]));
    writeFileSync(
      join(dir, 'run-state.json'),
      JSON.stringify({ sessionState: { mainAgentState: { agentType: 'base2-max', creditsUsed: 12 }, fileContext: { cwd: '/src/app' } } }),
    );
    writeFileSync(join(dir, 'chat-meta.json'), '{"messageCount": ');
    const s = valid(await readCodebuffFile(join(dir, 'chat-messages.json')));
    expect([s.project.path, s.cost?.usd, s.model?.name]).toEqual(['/src/app', 0.12, 'base2-max']);
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'meta']);
    expect(s.warnings.map((w) => w.code)).toEqual(['bad_meta']);
  });
});

describe('Codebuff paths', () => {
  it.each([
    ['/home/u/.config/manicode/projects/myproject/chats/2026-07-15T15-04-00.000Z/chat-messages.json', true],
    ['/home/u/.config/manicode-dev/projects/p/chats/2026-07-15T15-04-00.000Z/chat-messages.json', true],
    ['/home/u/.config/manicode/projects/p/chats/2026-07-15T15-04-00.000Z/run-state.json', false],
    ['/home/u/.config/manicode/projects/p/chat-messages.json', false],
    ['/home/u/.config/manicode/projects/p/chats/x/chat-messages.json.tmp', false],
  ])('%s claimed: %s', (path, claimed) => expect(codebuffReader.claims(path)).toBe(claimed));

  it('looks in every channel, honours CODEBUFF_DATA_DIR and resumes with codebuff --continue', () => {
    expect(codebuffRoots({}, '/home/u')).toEqual([
      '/home/u/.config/manicode/projects',
      '/home/u/.config/manicode-dev/projects',
      '/home/u/.config/manicode-staging/projects',
    ]);
    expect(codebuffRoots({ CODEBUFF_DATA_DIR: '/d/manicode, /e/projects' }, '/home/u')).toEqual(['/d/manicode/projects', '/e/projects']);
    expect(codebuffReader.resumeCommand({ id: '2026-07-15T15-04-00.000Z', isSubAgent: false })).toBe('codebuff --continue 2026-07-15T15-04-00.000Z');
  });
});
