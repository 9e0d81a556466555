// Tests for the Vibe reader: tool calls and results, reasoning, injected context, meta.json edge cases, sub-agents and continuations.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WarningList } from '../coerce.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { parseVibe, readVibeFile, vibeReader, vibeRoots } from './vibe.ts';
import { vibeCompanion } from './vibe-layout.ts';
import type { VibeContext } from './vibe-session.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sv-vibe-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const lines = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const meta = (over: Record<string, unknown> = {}) => ({
  session_id: 'aaaaaaaa-0000-4000-8000-000000000001',
  parent_session_id: null,
  start_time: '2026-05-01T09:00:00+00:00',
  end_time: '2026-05-01T09:10:00+00:00',
  git_commit: 'c0ffee',
  git_branch: 'dev',
  environment: { working_directory: '/work/app' },
  config: { active_model: 'devstral-2' },
  title: null,
  stats: { session_prompt_tokens: 1000, session_completion_tokens: 200, session_cached_tokens: 600, session_cost: 0.0042 },
  ...over,
});

function session(dir: string, records: string, metaDoc?: unknown): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'messages.jsonl'), records);
  if (metaDoc !== undefined) writeFileSync(join(dir, 'meta.json'), typeof metaDoc === 'string' ? metaDoc : JSON.stringify(metaDoc));
  return join(dir, 'messages.jsonl');
}

describe('Vibe paths', () => {
  it.each([
    ['/home/u/.vibe/logs/session/session_20260613_100000_abc123de/messages.jsonl', true],
    ['/home/u/.vibe/logs/session/session_20260613_100000_abc123de/agents/explore_20260613_100200_bbbbbbbb/messages.jsonl', true],
    ['/home/u/.vibe/logs/session/session_20260613_100000_abc123de/meta.json', false],
    ['/home/u/.vibe/logs/session/notes/messages.jsonl', false],
    ['/home/u/.vibe/logs/session/session_20260613_100000_abc123de/messages.jsonl.tmp', false],
  ])('%s claimed: %s', (path, claimed) => expect(vibeReader.claims(path)).toBe(claimed));

  it("keeps meta.json as the session's companion, honours VIBE_HOME and resumes top-level sessions by id", () => {
    expect(vibeCompanion('/h/.vibe/logs/session/session_20260613_100000_abc123de/meta.json')).toBe(true);
    expect(vibeRoots({}, '/home/u')).toEqual(['/home/u/.vibe/logs/session']);
    expect(vibeRoots({ VIBE_HOME: '/opt/vibe' }, '/home/u')).toEqual(['/opt/vibe/logs/session']);
    expect(vibeReader.resumeCommand({ id: 'abc', isSubAgent: false })).toBe('vibe --resume abc');
    expect(vibeReader.resumeCommand({ id: 'abc', isSubAgent: true })).toBeNull();
  });
});

describe('Vibe messages', () => {
  it('pairs tool calls with tool results, marks <tool_error> results, keeps reasoning, injected context and images', async () => {
    const path = session(
      join(root, 'logs/session/session_20260501_090000_aaaaaaaa'),
      lines(
        { role: 'user', content: 'Context after compaction', injected: true, message_id: 'm0' },
        {
          role: 'user',
          content: 'fix the build',
          message_id: 'm1',
          images: [{ source: { kind: 'file', path: '/tmp/shot.png' }, alias: 'shot', mime_type: 'image/png' }],
        },
        {
          role: 'assistant',
          content: '',
          reasoning_content: 'look at the log',
          message_id: 'm2',
          tool_calls: [
            { id: 'c1', index: 0, function: { name: 'bash', arguments: '{"command":"make"}' }, type: 'function' },
            { id: 'c2', function: { name: 'read_file', arguments: 'not json' } },
          ],
        },
        { role: 'tool', content: 'ok', name: 'bash', tool_call_id: 'c1' },
        { role: 'tool', content: '<tool_error>read_file failed: missing</tool_error>', name: 'read_file', tool_call_id: 'c2' },
        { role: 'assistant', content: 'Fixed.', message_id: 'm3' },
      ),
      meta(),
    );
    const s = valid(await readVibeFile(path, Date.parse('2026-05-02T00:00:00Z')));
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => p.type)])).toEqual([
      ['system', ['text']],
      ['user', ['text', 'image']],
      ['assistant', ['thinking', 'tool_call', 'tool_call']],
      ['tool', ['tool_result']],
      ['tool', ['tool_result']],
      ['assistant', ['text']],
    ]);
    expect(s.messages[1]!.parts[1]).toEqual({ type: 'image', mediaType: 'image/png', data: null, url: 'file:///tmp/shot.png' });
    expect(s.messages[2]!.parts.slice(1)).toEqual([
      { type: 'tool_call', callId: 'c1', name: 'bash', input: { command: 'make' } },
      { type: 'tool_call', callId: 'c2', name: 'read_file', input: 'not json' },
    ]);
    expect(s.messages.slice(3, 5).map((m) => m.parts[0])).toEqual([
      { type: 'tool_result', callId: 'c1', output: 'ok', isError: false },
      { type: 'tool_result', callId: 'c2', output: '<tool_error>read_file failed: missing</tool_error>', isError: true },
    ]);
    // The injected compaction context is Vibe's, so the title comes from the first typed prompt.
    expect(s.title).toBe('fix the build');
    // Cached prompt tokens are split out of the prompt; the cost is Vibe's own figure.
    expect(s.usage).toEqual({ input: 400, output: 200, cacheRead: 600, cacheWrite: 0, reasoning: 0 });
    expect(s.cost).toEqual({ usd: 0.0042, estimated: false });
    expect(s.model?.name).toBe('devstral-2');
    expect(s.project.branch).toBe('dev');
    expect(s.warnings.map((w) => w.code)).toEqual(['unparsable_arguments']);
  });

  it('reports unknown roles, empty records and torn lines, and keeps the rest', () => {
    const ctx: VibeContext = {
      path: '/h/logs/session/session_20260501_090000_bbbbbbbb/messages.jsonl',
      size: 1,
      mtimeMs: 0,
      now: 1,
      warnings: [{ code: 'torn_line', message: 'x', count: 1 }],
      meta: null,
      metaFile: null,
      parentKey: null,
      childKeys: [],
    };
    const s = valid(
      parseVibe(
        [
          { value: { role: 'narrator', content: 'x' }, line: 1 },
          { value: { role: 'assistant', content: '' }, line: 2 },
          { value: { role: 'user', content: 'hi' }, line: 3 },
        ],
        ctx,
        new WarningList(),
      ),
    );
    expect(s.messages.map((m) => m.id)).toEqual(['line-3']);
    expect(s.key).toBe('vibe:session_20260501_090000_bbbbbbbb');
    expect(s.warnings.map((w) => w.code).sort()).toEqual(['missing_content', 'missing_field', 'torn_line', 'unknown_role']);
  });
});

describe('Vibe folders', () => {
  it("links a sub-agent logged under its parent's agents/ folder both ways, and a continuation only as a fact", async () => {
    const parentDir = join(root, 'tree/session_20260502_080000_cccccccc');
    const parent = session(
      parentDir,
      lines({ role: 'user', content: 'explore', message_id: 'p1' }),
      meta({ session_id: 'cccccccc-1111-4111-8111-000000000000' }),
    );
    const child = session(
      join(parentDir, 'agents/explore_20260502_080100_dddddddd'),
      lines({ role: 'user', content: 'look around' }),
      meta({ session_id: 'dddddddd-2222-4222-8222-000000000000', parent_session_id: null }),
    );
    const next = session(
      join(root, 'tree/session_20260502_090000_eeeeeeee'),
      lines({ role: 'user', content: 'go on' }),
      meta({ session_id: 'eeeeeeee-3333', parent_session_id: 'cccccccc-1111-4111-8111-000000000000' }),
    );
    const p = valid(await readVibeFile(parent));
    const c = valid(await readVibeFile(child));
    const n = valid(await readVibeFile(next));
    expect(p.childKeys).toEqual(['vibe:dddddddd-2222-4222-8222-000000000000']);
    expect(c.parentKey).toBe('vibe:cccccccc-1111-4111-8111-000000000000');
    expect([n.parentKey, n.extra.continuedFrom]).toEqual([null, 'cccccccc-1111-4111-8111-000000000000']);
  });

  // agentsview's TestParseVibeSessionModelFromMessages: meta.json without a model, the answers naming it.
  it('takes the model from the answers when meta.json names none, and prices the session with it', async () => {
    const path = session(
      join(root, 'x/session_20260613_100000_77777777'),
      lines({ role: 'user', content: 'test message' }, { role: 'assistant', content: 'test response', model: 'mistral-medium-3.5' }),
      meta({ config: {}, stats: { session_prompt_tokens: 50, session_completion_tokens: 25 } }),
    );
    const s = valid(await readVibeFile(path));
    expect(s.model?.name).toBe('mistral-medium-3.5');
    expect(s.cost?.estimated).toBe(true);
    expect(s.warnings.map((w) => w.code)).not.toContain('unpriced_model');
  });

  it('reads a session whose meta.json is missing or broken, saying what is unknown', async () => {
    const bare = valid(await readVibeFile(session(join(root, 'x/session_20260503_080000_ffffffff'), lines({ role: 'user', content: 'hi' }))));
    expect([bare.id, bare.usage, bare.model]).toEqual(['session_20260503_080000_ffffffff', null, null]);
    const broken = valid(
      await readVibeFile(session(join(root, 'x/session_20260503_090000_99999999'), lines({ role: 'user', content: 'hi' }), '{"session_id": ')),
    );
    expect(broken.warnings.map((w) => w.code)).toContain('bad_meta');
    expect((await failure(() => readVibeFile(session(join(root, 'x/session_20260503_100000_88888888'), 'not json\n')))).code).toBe('invalid_json');
  });
});
