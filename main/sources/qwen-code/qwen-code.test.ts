// Qwen Code reader edge cases: rewinds, broken chains, streamed fragments, sub-agents, system records, usage, paths.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { Head } from '../head.ts';
import type { QwenLine } from './qwen-lines.ts';
import { splitGlued } from './qwen-lines.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { parseQwen, qwenCodeReader, readQwenFile } from './qwen-code.ts';

const SID = '019f1111-0000-7000-8000-000000000001';
const NOW = Date.parse('2026-08-17T12:05:00.000Z');
const tmp = mkdtempSync(join(tmpdir(), 'qwen-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let clock = 0;
function rec(uuid: string, parentUuid: string | null, type: string, more: Record<string, unknown> = {}) {
  const timestamp = new Date(Date.parse('2026-08-17T12:00:00.000Z') + 1000 * clock++).toISOString();
  return { uuid, parentUuid, sessionId: SID, timestamp, type, cwd: '/srv/app', version: '0.21.13', ...more };
}
const user = (uuid: string, parent: string | null, text: string) => rec(uuid, parent, 'user', { message: { role: 'user', parts: [{ text }] } });
const model = (uuid: string, parent: string | null, parts: unknown[], more: Record<string, unknown> = {}) =>
  rec(uuid, parent, 'assistant', { model: 'qwen3-coder-plus', message: { role: 'model', parts }, ...more });
const lines = (...values: unknown[]): QwenLine[] => values.map((value, i) => ({ value, line: i + 1, part: 0 }));

function parse(records: QwenLine[], mtimeMs = NOW - 3600_000): Session {
  return valid(parseQwen(records, { path: `/q/projects/-srv-app/chats/${SID}.jsonl`, size: 1, mtimeMs, warnings: [], now: NOW }));
}
const texts = (s: Session) => s.messages.map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join('+'));

describe('Qwen Code chains', () => {
  it('follows the active branch after a rewind and counts the records left behind', () => {
    const s = parse(
      lines(
        user('u1', null, 'first'),
        model('a1', 'u1', [{ text: 'answer one' }]),
        user('u2', 'a1', 'abandoned'),
        model('a2', 'u2', [{ text: 'abandoned answer' }]),
        rec('r1', 'a1', 'system', { subtype: 'rewind', systemPayload: { truncatedCount: 2 } }),
        user('u3', 'r1', 'second try'),
        model('a3', 'u3', [{ text: 'answer two' }]),
      ),
    );
    expect(texts(s)).toEqual(['first', 'answer one', 'Rewound the conversation (2 items).', 'second try', 'answer two']);
    expect(s.extra.rewind).toEqual({ droppedRecords: 2 });
    expect(s.warnings).toEqual([]);
  });

  it('never takes a parentless metadata record for the leaf: the conversation and the rewind count stay, its title applies', () => {
    const convo = [
      user('u1', null, 'first'),
      model('a1', 'u1', [{ text: 'answer one' }]),
      user('u2', 'a1', 'abandoned'),
      rec('r1', 'a1', 'system', { subtype: 'rewind', systemPayload: { truncatedCount: 1 } }),
      user('u3', 'r1', 'second try'),
      model('a3', 'u3', [{ text: 'answer two' }]),
    ];
    const { parentUuid: _, ...unparented } = rec('t2', null, 'system', { subtype: 'custom_title', systemPayload: { customTitle: 'Renamed' } });
    for (const title of [rec('t1', null, 'system', { subtype: 'custom_title', systemPayload: { customTitle: 'Renamed' } }), unparented]) {
      const s = parse(lines(...convo, title));
      expect(texts(s)).toEqual(['first', 'answer one', 'Rewound the conversation (1 items).', 'second try', 'answer two']);
      expect([s.title, s.project.path, s.extra.rewind]).toEqual(['Renamed', '/srv/app', { droppedRecords: 1 }]);
    }
    // A rewind back to the start (no parent) still ends the conversation it left.
    const back = parse(lines(...convo.slice(0, 2), rec('r2', null, 'system', { subtype: 'rewind', systemPayload: { truncatedCount: 2 } })));
    expect([texts(back), back.extra.rewind]).toEqual([['Rewound the conversation (2 items).'], { droppedRecords: 2 }]);
  });

  it('reads records written without a parentUuid field in file order', () => {
    const strip = ({ parentUuid: _, ...r }: Record<string, unknown>) => r;
    const s = parse(
      lines(
        strip(model('a1', null, [{ functionCall: { id: 'c1', name: 'agent', args: { prompt: 'Review API' } } }])),
        strip(
          rec('t1', null, 'tool_result', {
            message: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'agent', response: { output: 'API OK' } } }] },
          }),
        ),
      ),
    );
    expect([texts(s), s.extra.rewind]).toEqual([['tool_call', 'tool_result'], undefined]);
  });

  it('says where the chain breaks, joins streamed fragments of one uuid, and ignores artifact records as the leaf', () => {
    const s = parse(
      lines(
        user('u1', 'gone', 'orphaned start'),
        model('a1', 'u1', [{ text: 'part one' }]),
        model('a1', 'u1', [{ text: 'part two' }], {
          usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: 50, cachedContentTokenCount: 400, thoughtsTokenCount: 20 },
        }),
        rec('x1', 'a1', 'system', { subtype: 'session_artifact_snapshot', systemPayload: {} }),
      ),
    );
    expect(texts(s)).toEqual(['orphaned start', 'part one+part two']);
    expect(s.messages[1]?.usage).toEqual({ input: 600, output: 50, cacheRead: 400, cacheWrite: 0, reasoning: 20 });
    expect(s.usage).toEqual({ input: 600, output: 50, cacheRead: 400, cacheWrite: 0, reasoning: 20 });
    expect(s.warnings.map((w) => w.code)).toEqual(['broken_chain', 'unpriced_model']);
  });

  it('keeps sub-agent records in their own thread, linked to the call that started them', () => {
    const s = parse(
      lines(
        user('u1', null, 'explore'),
        model('a1', 'u1', [{ functionCall: { id: 'call-9', name: 'agent', args: { prompt: 'look' } } }]),
        rec('s0', null, 'system', {
          isSidechain: true,
          agentId: 'explore-1',
          subtype: 'agent_session_ready',
          systemPayload: { callId: 'call-9', subagentSessionReady: true },
        }),
        { ...user('s1', 's0', 'look'), isSidechain: true, agentId: 'explore-1', agentName: 'Explore' },
        rec('t1', 'a1', 'tool_result', {
          message: { role: 'user', parts: [{ functionResponse: { id: 'call-9', name: 'agent', response: { output: 'found it' } } }] },
          toolCallResult: { callId: 'call-9', status: 'success' },
        }),
      ),
    );
    expect(s.messages.map((m) => [m.role, m.agentId])).toEqual([
      ['user', null],
      ['assistant', null],
      ['user', 'explore-1'],
      ['tool', null],
    ]);
    expect(s.messages[2]?.annotations).toEqual({ parentToolCallId: 'call-9', agentName: 'Explore' });
    expect(s.title).toBe('explore');
  });

  it('takes the last custom title, the parent session, compressions and commands; warns about unknown records', () => {
    const s = parse(
      lines(
        user('u1', null, 'hi'),
        rec('c1', 'u1', 'system', { subtype: 'custom_title', systemPayload: { customTitle: 'Old name' } }),
        rec('c2', 'c1', 'system', { subtype: 'custom_title', systemPayload: { customTitle: 'Release notes' } }),
        rec('p1', 'c2', 'system', { subtype: 'parent_session', systemPayload: { parentSessionId: 'parent-1' } }),
        rec('k1', 'p1', 'system', {
          subtype: 'chat_compression',
          systemPayload: { info: { originalTokenCount: 9000 }, compressedHistory: [{ role: 'user', parts: [{ text: 'Summary so far.' }] }] },
        }),
        rec('s1', 'k1', 'system', { subtype: 'slash_command', systemPayload: { phase: 'invocation', rawCommand: '/stats' } }),
        rec('z1', 's1', 'system', { subtype: 'hologram', systemPayload: {} }),
        rec('z2', 'z1', 'narration', {}),
        rec('t1', 'z2', 'system', { subtype: 'ui_telemetry', systemPayload: { uiEvent: {} } }),
      ),
    );
    expect([s.title, s.parentKey]).toEqual(['Release notes', 'qwen-code:parent-1']);
    expect(s.messages.slice(1).map((m) => [m.parts[0]?.type, m.annotations])).toEqual([
      ['compaction', { kind: 'compaction' }],
      ['text', { kind: 'command' }],
    ]);
    expect(s.messages[1]?.parts[0]).toEqual({ type: 'compaction', summary: 'Summary so far.', trigger: 'compression', tokensBefore: 9000 });
    expect(s.warnings.map((w) => w.message)).toEqual([
      'Unknown Qwen Code record "system hologram" (1 record) skipped.',
      'Unknown Qwen Code record "narration" (1 record) skipped.',
    ]);
  });

  it('is live while the file and its last record are recent and the last turn is open', () => {
    expect(parse(lines(user('u1', null, 'go')), NOW - 60_000).status).toBe('active');
    expect(parse(lines(user('u1', null, 'go'), model('a1', 'u1', [{ text: 'done' }])), NOW - 60_000).status).toBe('unknown');
  });
});

describe('Qwen Code files and paths', () => {
  it('reads an archived chat with a glued line and a torn last line', async () => {
    const dir = join(tmp, '.qwen', 'projects', '-srv-app', 'chats', 'archive');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${SID}.jsonl`);
    writeFileSync(path, `${JSON.stringify(user('u1', null, 'a'))}${JSON.stringify(model('a1', 'u1', [{ text: 'b' }]))}\n{"uuid":"cut`);
    const s = valid(await readQwenFile(path, NOW));
    expect([texts(s), s.extra.archived, s.warnings.map((w) => w.code)]).toEqual([['a', 'b'], true, ['torn_line', 'glued_records']]);
  });

  it('splits only whole objects glued back to back', () => {
    expect(splitGlued('{"a":"}{"}{"b":[1,{"c":2}]}')).toEqual([{ a: '}{' }, { b: [1, { c: 2 }] }]);
    expect(splitGlued('{"a":1} x {"b":2}')).toBeNull();
    expect(splitGlued('{"a":1}')).toBeNull();
  });

  it('claims chats and archived chats by their session-id names, recognises them by content, finds the runtime dir', () => {
    const chats = '/h/.qwen/projects/-srv-app/chats';
    expect(
      [`${chats}/${SID}.jsonl`, `${chats}/archive/${SID}.jsonl`, `${chats}/notes.jsonl`, `/h/.qwen/tmp/x/chats/${SID}.jsonl`].map((p) =>
        qwenCodeReader.claims(p),
      ),
    ).toEqual([true, true, false, false]);
    expect(qwenCodeReader.recognizes?.(new Head(`${JSON.stringify(user('u1', null, 'hi'))}\n`, true))).toBe(true);
    // A first line of two records glued together (a crashed append) is recognised too, "}{" in a string or not.
    const glued = `${JSON.stringify(user('u1', null, 'a }{ b'))}${JSON.stringify(user('u2', 'u1', 'next'))}\n`;
    expect(qwenCodeReader.recognizes?.(new Head(glued, true))).toBe(true);
    expect(qwenCodeReader.recognizes?.(new Head(`${JSON.stringify({ type: 'user', message: { parts: [{}, {}] } })}\n`, true))).toBe(false);
    expect(qwenCodeReader.defaultRoots({ QWEN_RUNTIME_DIR: '/rt', QWEN_HOME: '/qh' }, '/home/u')).toEqual(['/rt/projects']);
    expect(qwenCodeReader.defaultRoots({}, '/home/u')).toEqual(['/home/u/.qwen/projects']);
    expect(qwenCodeReader.resumeCommand({ id: SID, isSubAgent: false })).toBe(`qwen --resume ${SID}`);
  });
});
