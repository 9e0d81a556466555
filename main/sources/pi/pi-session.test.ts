// Tests the Pi-format parser shared with OpenClaw: content, tools, thinking, usage and cost, titles, warnings, status.
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import type { DocumentContext } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { buildPiSession, type PiSessionOptions } from './pi-session.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const ctx: DocumentContext = { path: '/h/.pi/agent/sessions/--p--/2026-01-01T00-00-00-000Z_S.jsonl', size: 1, mtimeMs: T0 + 60_000, warnings: [] };
const opts: PiSessionOptions = {
  format: 'pi',
  fileId: 'from-name',
  now: T0 + 24 * 3600_000,
  parentKey: null,
  childKeys: [],
  fallbackTitle: null,
  extra: {},
  archived: null,
  extraFiles: [],
};
const lines = (...values: unknown[]): JsonLine[] => values.map((value, i) => ({ value, line: i + 1 }));
/** Entries without a `parentId` are chained to the entry before them, as Pi appends them. */
function chain(values: unknown[]): unknown[] {
  let previous: string | null = null;
  return values.map((v) => {
    if (typeof v !== 'object' || v === null || (v as { type?: unknown }).type === 'session' || (v as { type?: unknown }).type === 'title') return v;
    const e = v as Record<string, unknown>;
    const out = 'parentId' in e ? e : { ...e, parentId: previous };
    previous = typeof out.id === 'string' ? out.id : previous;
    return out;
  });
}
const read = (values: unknown[], o: Partial<PiSessionOptions> = {}, c: Partial<DocumentContext> = {}): Session =>
  valid(buildPiSession(lines(...chain(values)), { ...ctx, ...c }, { ...opts, ...o }));

const header = { type: 'session', version: 3, id: 'S', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/home/dev/app' };
let n = 0;
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const msg = (message: Record<string, unknown>, parentId?: string | null, id = `e${++n}`) => ({
  type: 'message',
  id,
  ...(parentId !== undefined ? { parentId } : {}),
  timestamp: at(n),
  message,
});
const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const shape = (s: Session) => s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`);

describe('buildPiSession', () => {
  it('pairs tool calls with results, keeps thinking (redacted too), images, usage and the recorded cost', () => {
    const s = read([
      header,
      { type: 'model_change', id: 'm', parentId: null, timestamp: at(0), provider: 'anthropic', modelId: 'claude-opus-4-5' },
      msg(
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Fix the login bug' },
            { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          ],
        },
        'm',
        'u1',
      ),
      msg(
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Look at auth.', thinkingSignature: 'sig' },
            { type: 'thinking', thinking: '', redacted: true },
            { type: 'toolCall', id: 't1', name: 'read', arguments: { path: 'auth.go' } },
          ],
          provider: 'anthropic',
          model: 'claude-opus-4-5',
          usage: { input: 100, output: 50, cacheRead: 7, cacheWrite: 3, totalTokens: 160, cost: { total: 0.01 } },
          stopReason: 'toolUse',
        },
        'u1',
        'a1',
      ),
      msg({ role: 'toolResult', toolCallId: 't1', toolName: 'read', content: [{ type: 'text', text: 'package auth' }], isError: false }, 'a1', 'r1'),
      msg(
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Fixed.' }],
          model: 'claude-opus-4-5',
          usage: { input: 200, output: 10, cost: { total: 0.005 } },
          stopReason: 'stop',
        },
        'r1',
        'a2',
      ),
    ]);
    expect(shape(s)).toEqual(['user:text+image', 'assistant:thinking+thinking+tool_call', 'tool:tool_result', 'assistant:text']);
    expect(s.messages[1]?.parts.slice(0, 2)).toEqual([
      { type: 'thinking', text: 'Look at auth.', redacted: false },
      { type: 'thinking', text: '', redacted: true },
    ]);
    expect(s.messages[2]?.parts[0]).toEqual({ type: 'tool_result', callId: 't1', output: 'package auth', isError: false });
    expect(s.messages[2]?.annotations).toEqual({ toolName: 'read' });
    expect(countToolCalls(s)).toBe(1);
    expect(s.usage).toEqual({ input: 300, output: 60, cacheRead: 7, cacheWrite: 3, reasoning: 0 });
    expect(s.cost).toEqual({ usd: 0.015, estimated: false });
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-opus-4-5', parameters: {} });
    expect([s.key, s.title, s.project.path, s.project.name, s.formatVersion]).toEqual(['pi:S', 'Fix the login bug', '/home/dev/app', 'app', '3']);
    expect(s.warnings).toEqual([]);
  });

  // OpenClaw's own shapes (agentsview's TestParseOpenClawSession_RealToolCallFormat): a toolCall whose arguments are
  // under "input" only, and the output in a toolResult block of the toolResult message.
  it('reads OpenClaw tool calls with their input under "input" and results held in a toolResult block', () => {
    const s = read([
      header,
      msg(user('list files')),
      msg({ role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'bash', input: { command: 'ls' } }] }),
      msg({
        role: 'toolResult',
        toolCallId: 'call_1',
        toolName: 'bash',
        isError: false,
        content: [{ type: 'toolResult', toolCallId: 'call_1', name: 'bash', text: 'file1\nfile2' }],
      }),
    ]);
    expect(s.messages[1]?.parts).toEqual([{ type: 'tool_call', callId: 'call_1', name: 'bash', input: { command: 'ls' } }]);
    expect(s.messages[2]?.parts).toEqual([{ type: 'tool_result', callId: 'call_1', output: 'file1\nfile2', isError: false }]);
    expect(s.warnings).toEqual([]);
  });

  it('estimates the price of a call that recorded tokens but no cost', () => {
    const s = read([header, msg(user('hi')), msg({ role: 'assistant', content: 'hello', model: 'claude-sonnet-4-5', usage: { input: 1000, output: 1000 } })]);
    expect(s.cost?.estimated).toBe(true);
    expect(s.cost?.usd).toBeGreaterThan(0);
  });

  it('skips malformed lines and unknown entry types with warnings, never silently', () => {
    const s = read([
      header,
      msg(user('Fix it')),
      'not valid json -- the line reader leaves a string here only when a line is a JSON string',
      { type: 'unknown_future_entry_type', id: 'x', timestamp: at(9) },
      { type: 'message', id: 'nocontent', timestamp: at(10), message: { role: 'assistant' } },
      msg({
        role: 'assistant',
        content: [
          { type: 'hologram', data: 1 },
          { type: 'text', text: 'ok' },
        ],
      }),
    ]);
    expect(shape(s)).toEqual(['user:text', 'assistant:text']);
    expect(s.warnings.map((w) => [w.code, w.count])).toEqual([
      ['not_a_record', 1],
      ['missing_content', 1],
      ['unknown_record_type', 1],
      ['unknown_block_type', 1],
    ]);
  });

  it('names the session from the title slot, then session_info, then the header title, then the first prompt', () => {
    // oh-my-pi rewrites its title slot in place, so it holds the current title even past a session_info rename
    // (agentsview reads it so too, issue #959); a Pi file has no slot and its last session_info names it.
    const slot = { type: 'title', v: 1, title: 'Slot title', pad: '   ' };
    const info = { type: 'session_info', id: 'i', timestamp: at(5), name: '  Named by me ' };
    expect(read([slot, header, msg(user('prompt')), info]).title).toBe('Slot title');
    expect(read([{ ...slot, title: '' }, header, msg(user('prompt')), info]).title).toBe('Named by me');
    expect(read([header, msg(user('prompt')), info]).title).toBe('Named by me');
    expect(read([slot, header, msg(user('prompt'))]).title).toBe('Slot title');
    expect(read([{ ...header, title: 'Header title' }, msg(user('prompt'))]).title).toBe('Header title');
    expect(read([header, msg({ role: 'bashExecution', command: 'ls', output: 'a', exitCode: 0, cancelled: false, truncated: false })]).title).toBe(
      'Pi session S',
    );
  });

  it('shows bash runs, injected messages, summaries and compactions as what they are', () => {
    const s = read([
      header,
      msg({ role: 'bashExecution', command: 'npm test', output: 'FAIL', exitCode: 1, cancelled: false, truncated: false }),
      { type: 'custom_message', id: 'cm', timestamp: at(3), customType: 'reminder', content: 'Be brief', display: false },
      { type: 'branch_summary', id: 'bs', timestamp: at(4), fromId: 'e1', summary: 'Tried X first.' },
      { type: 'compaction', id: 'c', timestamp: at(5), summary: 'Earlier work', firstKeptEntryId: 'e1', tokensBefore: 5000, fromHook: true },
      { type: 'custom', id: 'st', timestamp: at(6), customType: 'ui_state', data: {} },
    ]);
    expect(shape(s)).toEqual(['user:tool_call+tool_result', 'system:text', 'system:text', 'system:compaction']);
    expect(s.messages[0]?.parts[1]).toEqual({ type: 'tool_result', callId: expect.stringMatching(/^bash:/), output: 'FAIL', isError: true });
    expect(s.messages[1]?.annotations).toEqual({ customType: 'reminder', hidden: true });
    expect(s.messages[3]?.parts[0]).toEqual({ type: 'compaction', summary: 'Earlier work', trigger: 'extension', tokensBefore: 5000 });
    expect(s.extra).toMatchObject({ compactions: 1, otherEntries: { 'custom:ui_state': 1 } });
  });

  it('shows only the active branch and counts what a rewind left behind', () => {
    const s = read([header, msg(user('one'), null, 'a'), msg(user('abandoned'), 'a', 'b'), msg(user('kept'), 'a', 'c')]);
    expect(s.messages.map((m) => m.id)).toEqual(['a', 'c']);
    expect(s.extra.otherBranches).toEqual({ entries: 1, messages: 1 });
  });

  it('reads oh-my-pi model changes ("provider/model") and thinking levels, and sums side calls into the totals', () => {
    const s = read([
      header,
      { type: 'model_change', id: 'm', parentId: null, timestamp: at(1), model: 'openai/gpt-5' },
      { type: 'thinking_level_change', id: 't', parentId: 'm', timestamp: at(2), thinkingLevel: 'high' },
      msg(user('go'), 't', 'u'),
      msg({ role: 'assistant', content: 'done', usage: { input: 10, output: 2, cost: { total: 0.001 } } }, 'u', 'a'),
      {
        type: 'model_usage',
        id: 'mu',
        parentId: 'a',
        timestamp: at(9),
        purpose: 'title',
        model: 'gpt-5-mini',
        usage: { input: 5, output: 1, cost: { total: 0.0001 } },
      },
    ]);
    expect(s.model).toEqual({ provider: 'openai', name: 'gpt-5', parameters: { thinkingLevel: 'high' } });
    expect(s.usage).toEqual({ input: 15, output: 3, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(s.cost?.usd).toBeCloseTo(0.0011, 10);
    expect(s.extra.sideCalls).toEqual([
      { purpose: 'title', model: 'gpt-5-mini', usage: { input: 5, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, usd: 0.0001 },
    ]);
  });

  it('is active only while recent by both the file and its records, with a turn still open', () => {
    const open = [
      header,
      msg(user('go'), null, 'u'),
      msg({ role: 'assistant', content: [{ type: 'toolCall', id: 't', name: 'bash', arguments: {} }] }, 'u', 'a'),
    ];
    const last = Date.parse(at(n));
    expect(read(open, { now: last + 60_000 }, { mtimeMs: last }).status).toBe('active');
    // Copied today: the file is new, its records are old.
    expect(read(open, { now: last + 3600_000 }, { mtimeMs: last + 3600_000 }).status).toBe('closed');
    const done = [...open, msg({ role: 'assistant', content: 'done' }, 'a', 'z')];
    expect(read(done, { now: Date.parse(at(n)) + 1000 }, { mtimeMs: Date.parse(at(n)) }).status).toBe('closed');
  });

  it('reads a file without a header, warning and naming it from the file, and refuses one with nothing in it', async () => {
    const s = read([msg(user('hello'))]);
    expect([s.id, s.key]).toEqual(['from-name', 'pi:from-name']);
    expect(s.warnings.map((w) => w.code)).toEqual(['missing_header']);
    const err = await failure(() => buildPiSession(lines({ note: 1 }), ctx, opts));
    expect(err.code).toBe('wrong_shape');
  });

  it('marks an archived transcript closed, with its outcome and the time it was set aside', () => {
    const s = read([header, msg(user('hi'))], { format: 'openclaw', archived: { reason: 'deleted', at: '2026-02-01T10:00:00.000Z' } });
    expect([s.key, s.status, s.closedAt, s.outcome?.status]).toEqual(['openclaw:S', 'closed', '2026-02-01T10:00:00.000Z', 'deleted']);
  });

  it('names the session a branched one came from by its key, whether the header gives its file or its id', () => {
    const fromFile = read([{ ...header, parentSession: '/home/u/.pi/agent/sessions/--app--/2026-01-01T00-00-00-000Z_P1.jsonl' }, msg(user('hi'))]);
    const fromId = read([{ ...header, branchedFrom: 'P2' }, msg(user('hi'))]);
    expect([fromFile.extra.forkedFrom, fromId.extra.forkedFrom]).toEqual(['pi:P1', 'pi:P2']);
  });
});
