// Tests for ai-agent v3 ledgers: every sample against ai-viewer's expected stream, our fixtures, versions and hostile records.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import type { DocumentContext } from '../coerce.ts';
import { aiAgentReader } from './ai-agent.ts';
import { parseAiAgentLedger } from './ai-agent-ledger.ts';
import type { JsonLine } from '../jsonl.ts';
import { UnreadableError } from '../types.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { movedToNow } from '../../test-support/recent-times.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const fixtureLedgers = join(here, './fixtures/.ai-agent/sessions/session');
const sampleLedgers = join(samplesDir, 'ai-agent-v3/session');
const P = 'c0ffee00-1111-4222-8333-444455556666';
const C = 'c0ffee00-1111-4222-8333-777788889999';

async function read(path: string): Promise<Session> {
  return valid(await aiAgentReader.read(path));
}

function lines(records: unknown[]): JsonLine[] {
  return records.map((value, i) => ({ value, line: i + 1 }));
}

function parse(records: unknown[], mtimeMs = 0, path = '/home/u/.ai-agent/sessions/session/x.jsonl'): Session {
  const ctx: DocumentContext = { path, size: 1, mtimeMs, warnings: [] };
  return valid(parseAiAgentLedger(lines(records), ctx));
}

function failure(run: () => unknown): UnreadableError {
  try {
    run();
  } catch (err) {
    if (err instanceof UnreadableError) return err;
    throw err;
  }
  throw new Error('expected an UnreadableError');
}

const byId = (s: Session, id: string) => s.operations.find((o) => o.id === id);
const detail = (s: Session, id: string) => byId(s, id)?.detail as Record<string, unknown>;

interface Event {
  kind: string;
  payload: Record<string, unknown>;
}

function expected(caseName: string): Event[] {
  return readFileSync(join(samplesDir, 'ai-agent-v3/_expected', caseName, 'expected.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Event);
}

const iso = (us: unknown) => new Date(Number(us) / 1000).toISOString();

/** Everything ai-viewer states about one native session that our model also holds, compared fact by fact. */
function compare(s: Session, events: Event[]): void {
  const mine = events.filter((e) => (e.payload.NativeID ?? e.payload.SessionNativeID) === s.id);
  // ai-viewer also synthesises a child from the parent's childSessions[]; our parent only links to it.
  const started = mine.find((e) => e.kind === 'session_started' && !(e.payload.Extras as Record<string, unknown>).synthesizedFromParent)?.payload;
  expect(started).toBeDefined();
  const extras = started?.Extras as Record<string, unknown>;
  expect([s.extra.agentId, s.extra.callPath, s.extra.headendId, s.extra.capturePayloads, s.extra.originId]).toEqual([
    started?.AgentName,
    started?.CallPath,
    extras.headendId,
    extras.capturePayloads,
    extras.originId,
  ]);
  expect(s.parentKey).toBe(started?.ParentNativeID ? `ai-agent:${String(started.ParentNativeID)}` : null);
  expect(s.createdAt).toBe(iso(started?.Ts));

  const turns = s.operations.filter((o) => o.type === 'turn');
  expect(turns.map((t) => [(t.detail as { index: number }).index, t.timestamp])).toEqual(
    mine.filter((e) => e.kind === 'turn_started').map((e) => [e.payload.Seq, iso(e.payload.Ts)]),
  );
  // ai-viewer reports 0 tokens for a turn without accounting; we leave it null.
  expect(
    turns
      .filter((t) => t.endedAt)
      .map((t) => [
        t.endedAt,
        t.usage?.input ?? 0,
        t.usage?.output ?? 0,
        t.usage?.cacheRead ?? 0,
        t.cost?.usd ?? 0,
        t.status === 'ok' ? 'completed' : t.status,
      ]),
  ).toEqual(
    mine
      .filter((e) => e.kind === 'turn_finalized')
      .map((e) => [iso(e.payload.EndTs), e.payload.TokensIn, e.payload.TokensOut, e.payload.TokensCacheRead, e.payload.CostUSD, e.payload.Status]),
  );

  const ops = s.operations.filter((o) => o.type !== 'turn');
  const opsStarted = mine.filter((e) => e.kind === 'op_started').map((e) => e.payload);
  expect(
    ops.map((o) => {
      const d = o.detail as { model?: string; provider: string | null };
      // ai-viewer leaves llm ops unnamed; we name them after the model.
      return [o.type, o.type === 'llm' ? '' : o.name, d.model ?? '', d.provider, o.childSessionKey?.replace('ai-agent:', '') ?? '', o.timestamp];
    }),
  ).toEqual(opsStarted.map((p) => [p.Kind, p.Name, p.Model, p.Provider, p.ChildSessionNativeID, iso(p.Ts)]));
  expect(
    ops.map((o) => [
      o.status === 'ok' ? 'completed' : o.status,
      o.endedAt,
      o.usage?.input ?? 0,
      o.usage?.output ?? 0,
      o.usage?.cacheRead ?? 0,
      o.cost?.usd ?? 0,
    ]),
  ).toEqual(
    mine
      .filter((e) => e.kind === 'op_finalized')
      .map((e) => [e.payload.Status, iso(e.payload.EndTs), e.payload.TokensIn, e.payload.TokensOut, e.payload.TokensCacheRead, e.payload.CostUSD]),
  );

  const refs = ops.flatMap((o) => (o.detail as { payloads?: Array<Record<string, unknown>> }).payloads ?? []);
  expect(refs.map((r) => [r.kind, r.format, r.sha256 ?? '', r.captured && r.path ? String(r.path) : ''])).toEqual(
    mine
      .filter((e) => e.kind === 'payload_ref')
      .map((e) => [e.payload.PayloadKind, e.payload.Format, e.payload.SHA256, String(e.payload.LocationURI).replace('file://<ROOT>/', '')]),
  );

  const warned = turns.flatMap((t) => (t.detail as { warnings?: string[] }).warnings ?? []);
  expect(warned).toEqual(mine.filter((e) => e.kind === 'log_entry' && e.payload.Severity === 'WRN').map((e) => e.payload.Message));

  const finalized = mine.find((e) => e.kind === 'session_finalized')?.payload;
  if (!finalized) {
    expect(s.status).not.toBe('closed');
    return;
  }
  expect([s.status, s.closedAt, s.outcome?.status]).toEqual(['closed', iso(finalized.EndTs), finalized.Status === 'completed' ? 'success' : finalized.Status]);
  if (finalized.Status === 'failed') expect(s.outcome?.summary).toBe(finalized.ErrorMessage);
  const updated = mine.find((e) => e.kind === 'session_updated')?.payload.Extras as Record<string, unknown> | undefined;
  if (updated) expect(s.extra.finalReport).toEqual({ format: updated['finalReport.format'], captured: updated['finalReport.captured'] });
}

const CASES: Array<[string, string[]]> = [
  ['happy_single_turn', ['11111111-1111-1111-1111-111111111111']],
  ['multi_turn', ['22222222-2222-2222-2222-222222222222']],
  ['sub_agent', ['33333333-3333-3333-3333-333333333331', '33333333-3333-3333-3333-333333333332']],
  ['with_payloads', ['44444444-4444-4444-4444-444444444444']],
  ['in_progress_turn', ['55555555-5555-5555-5555-555555555555']],
  ['session_error', ['66666666-6666-6666-6666-666666666666']],
];

describe("v3 samples against ai-viewer's expected streams", () => {
  it.each(CASES)('%s', async (caseName, ids) => {
    const events = expected(caseName);
    for (const id of ids) compare(await read(join(sampleLedgers, `${id}.jsonl`)), events);
  });
});

describe('v3 samples', () => {
  const sample = (id: string) => read(join(sampleLedgers, `${id}.jsonl`));

  it('happy single turn: title, model, totals from session_summary, line origins', async () => {
    const path = join(sampleLedgers, '11111111-1111-1111-1111-111111111111.jsonl');
    const s = await read(path);
    expect([s.key, s.formatVersion, s.title, s.status, s.messages]).toEqual([
      'ai-agent:11111111-1111-1111-1111-111111111111',
      '3',
      'netdata-research',
      'closed',
      [],
    ]);
    expect([s.createdAt, s.updatedAt, s.closedAt]).toEqual(['2026-05-26T10:00:00.000Z', '2026-05-26T10:00:31.000Z', '2026-05-26T10:00:31.000Z']);
    expect(s.model).toEqual({ provider: 'anthropic', name: 'claude-sonnet-4-5', parameters: {} });
    expect([s.usage, s.cost]).toEqual([
      { input: 12345, output: 678, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      { usd: 0.0421, estimated: false },
    ]);
    expect(s.operations.map((o) => [o.id, o.parentId, o.origin])).toEqual([
      ['turn-1', null, { fileIndex: 0, line: 2, pointer: null }],
      ['op-aaaa-0001', 'turn-1', { fileIndex: 0, line: 3, pointer: '/ops/0' }],
    ]);
    expect(s.sourceFiles).toEqual([{ path, size: statSync(path).size, mtimeMs: statSync(path).mtimeMs, role: 'primary' }]);
    expect(s.warnings).toEqual([]);
  });

  it('sub-agent ledgers are separate sessions linked both ways', async () => {
    const parent = await sample('33333333-3333-3333-3333-333333333331');
    const child = await sample('33333333-3333-3333-3333-333333333332');
    expect(parent.childKeys).toEqual(['ai-agent:33333333-3333-3333-3333-333333333332']);
    expect(byId(parent, 'op-sess-1')?.childSessionKey).toBe('ai-agent:33333333-3333-3333-3333-333333333332');
    expect(detail(parent, 'op-sess-1').childSessions).toEqual([
      {
        sessionId: '33333333-3333-3333-3333-333333333332',
        agentId: 'web-fetch',
        callPath: 'cli:research:web-fetch',
        status: 'ok',
        ledgerPath: 'session/33333333-3333-3333-3333-333333333332.jsonl',
        parentOpId: 'op-sess-1',
      },
    ]);
    expect([child.parentKey, child.title, parent.usage, child.usage]).toEqual(['ai-agent:33333333-3333-3333-3333-333333333331', 'web-fetch', null, null]);
  });

  it('dangling payload refs are described and reported once as missing_payload', async () => {
    const s = await sample('44444444-4444-4444-4444-444444444444');
    expect((detail(s, 'op-llm-1').payloads as Array<{ state: string }>).map((r) => r.state)).toEqual(['missing', 'missing', 'not_captured']);
    expect(s.warnings).toEqual([
      {
        code: 'missing_payload',
        message:
          'Payload files referenced by the session are not on disk (first: payloads/44444444-4444-4444-4444-444444444444/turn-0001/llm-0001-request.http.gz); only their recorded size and checksum are shown.',
        count: 2,
      },
    ]);
  });

  it('an in-progress ledger is unknown with a warning when stale, active when fresh', () => {
    const records = readFileSync(join(sampleLedgers, '55555555-5555-5555-5555-555555555555.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    const stale = parse(records, 0);
    expect([stale.status, stale.closedAt, stale.outcome]).toEqual(['unknown', null, null]);
    expect(stale.warnings).toEqual([
      {
        code: 'incomplete_session',
        message:
          'The ledger stops without a session_summary or session_error: turn 1 started but never ended, and the file has not changed for over 10 minutes. ai-agent was probably interrupted.',
        count: 1,
      },
    ]);
    expect(stale.operations[0]).toMatchObject({ id: 'turn-1', endedAt: null, detail: { index: 1, unfinished: true } });
    // A fresh file is not enough: a ledger copied today keeps its old record times (then it is unknown, not running).
    expect(parse(records, Date.now()).status).toBe('unknown');
    const recent = movedToNow(records);
    expect([parse(recent, Date.now()).status, parse(recent, Date.now()).warnings]).toEqual(['active', []]);
  });

  it('session_error closes the session as failed with the error', async () => {
    const s = await sample('66666666-6666-6666-6666-666666666666');
    expect([s.status, s.closedAt, s.outcome, s.operations]).toEqual([
      'closed',
      '2026-05-26T15:00:00.500Z',
      { status: 'failed', summary: "unhandled exception: TypeError: cannot read property 'foo' of undefined", commitSha: null },
      [],
    ]);
  });
});

/** The fixture ledger's records, changed by `edit`, written into a fresh `sessions/session/` folder (payloads can go beside it). */
function variant(id: string, edit: (records: Array<Record<string, unknown>>) => string): { sessions: string; path: string } {
  const records = readFileSync(join(fixtureLedgers, `${id}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const sessions = join(testTempDir('ai-agent-ledger-'), '.ai-agent/sessions');
  mkdirSync(join(sessions, 'session'), { recursive: true });
  const path = join(sessions, 'session', `${id}.jsonl`);
  writeFileSync(path, edit(records));
  return { sessions, path };
}

describe('our own v3 fixtures', () => {
  it('parent ledger: child link, failed outcome from the summary, estimated op cost, turn warnings and errors', async () => {
    const s = await read(join(fixtureLedgers, `${P}.jsonl`));
    expect([s.title, s.status, s.childKeys, s.parentKey, s.warnings]).toEqual(['triage', 'closed', [`ai-agent:${C}`], null, []]);
    expect(s.outcome).toEqual({ status: 'failed', summary: 'sub-agent logs timed out', commitSha: null });
    expect(s.operations.map((o) => [o.id, o.type, o.name, o.status, o.latencyMs, o.childSessionKey])).toEqual([
      ['turn-1', 'turn', 'Turn 1', 'ok', 8000, null],
      ['op-1', 'llm', 'claude-haiku-4-5', 'ok', 2000, null],
      ['op-2', 'session', 'agent__logs', 'failed', 5500, `ai-agent:${C}`],
    ]);
    // No recorded cost on the op: the pricing table's (claude-haiku-4: $1 / $5 per M tokens).
    expect(byId(s, 'op-1')?.cost).toEqual({ usd: expect.closeTo(0.0015, 12) as number, estimated: true });
    expect([s.usage?.input, s.usage?.output, s.cost]).toEqual([900, 120, { usd: 0.0015, estimated: false }]);
    expect(detail(s, 'turn-1')).toEqual({ index: 1, warnings: ['slow sub-agent'], errors: ['sub-agent logs timed out'] });
    expect(detail(s, 'op-2').error).toBe('timeout');
    expect((detail(s, 'op-1').payloads as Array<{ kind: string; state: string }>).map((r) => [r.kind, r.state])).toEqual([
      ['llm_request', 'not_captured'],
      ['sdk_request', 'not_captured'],
    ]);
    expect(s.extra).toMatchObject({ agentId: 'triage', headendId: 'cli', capturePayloads: true, lastSeq: 4, finalReport: { format: 'text', captured: false } });
  });

  it('child ledger: its own session, linked to the parent, failed with its error', async () => {
    const s = await read(join(fixtureLedgers, `${C}.jsonl`));
    expect([s.parentKey, s.title, s.status, s.outcome?.summary, s.extra.capturePayloads, s.warnings]).toEqual([
      `ai-agent:${P}`,
      'logs',
      'closed',
      'logs__search timed out',
      false,
      [],
    ]);
    expect(s.operations.map((o) => [o.id, o.name, o.status])).toEqual([
      ['turn-1', 'Turn 1', 'failed'],
      ['op-1', 'logs__search', 'failed'],
    ]);
  });

  it('captured refs: present file described, escaping path refused; unknown and future records counted; a torn tail tolerated', async () => {
    const { sessions, path } = variant(P, (records) => {
      const op = (records.find((r) => r.recordType === 'turn_end')?.ops as Array<Record<string, unknown>>)[0]!;
      op.payloadRefs = [
        { ...(op.payloadRefs as object[])[0], captured: true },
        { kind: 'llm_response', format: 'sse', path: '../../../etc/hosts', captured: true },
      ];
      records.splice(2, 0, { version: 3, recordType: 'checkpoint', seq: 3, ts: '2026-02-01T09:00:01.500Z', sessionId: P });
      records.push({ version: 4, recordType: 'turn_start', seq: 5, ts: '2026-02-01T09:00:11.000Z', sessionId: P, turn: 2 });
      return `${records.map((r) => JSON.stringify(r)).join('\n')}\n{"version":3,"recordType":"turn_e`;
    });
    const payload = join(sessions, `payloads/${P}/turn-0001/llm-0001-request.http.gz`);
    mkdirSync(join(payload, '..'), { recursive: true });
    writeFileSync(payload, Buffer.alloc(112));
    const s = await read(path);
    expect((detail(s, 'op-1').payloads as Array<{ state: string; size?: number }>).map((r) => [r.state, r.size])).toEqual([
      ['present', 112],
      ['refused', undefined],
    ]);
    expect(s.warnings).toEqual([
      {
        code: 'torn_line',
        message: 'The last line (7) is incomplete: the file was probably being written or the writer was killed. It was skipped.',
        count: 1,
      },
      { code: 'unsafe_payload_path', message: 'A payload reference points outside the sessions folder ("../../../etc/hosts"); it was not opened.', count: 1 },
      { code: 'unknown_record_type', message: 'Ledger record type "checkpoint" is not known to this app (1 record); skipped.', count: 1 },
      { code: 'unsupported_record_version', message: '1 record has ledger version 4 (this app reads version 3); skipped.', count: 1 },
      { code: 'out_of_order', message: "1 record(s) do not follow the previous one's sequence number; they are shown in file order.", count: 1 },
    ]);
  });
});

describe('ledger tolerance and refusals', () => {
  const start = { version: 3, recordType: 'session_start', seq: 1, ts: '2026-01-01T00:00:00Z', sessionId: 's-1', originId: 's-1', agentId: 'a' };

  it('a ledger of another version is unsupported_version, naming it', () => {
    const err = failure(() =>
      parse([
        { ...start, version: 2 },
        { ...start, version: 2, seq: 2 },
      ]),
    );
    expect([err.code, err.message]).toEqual([
      'unsupported_version',
      'No record of this ledger is version 3 (found version 2); this app reads ai-agent ledger version 3.',
    ]);
  });

  it('version-3 records of no known type are wrong_shape', () => {
    expect(failure(() => parse([{ version: 3, recordType: 'telemetry', seq: 1 }])).code).toBe('wrong_shape');
  });

  it('wrong types and non-object lines become warnings; repeated seq numbers are noted', () => {
    const s = parse([
      start,
      'not a record',
      {
        version: 3,
        recordType: 'turn_end',
        seq: 1,
        ts: 7,
        turn: 'one',
        ops: [
          null,
          { opId: 1, kind: 'llm', startedAt: 'soon', accounting: { tokensIn: -5, costUsd: 'free' }, payloadRefs: 'none', childSessions: [{ agentId: 'x' }] },
        ],
      },
    ]);
    expect([s.id, s.title, s.operations.map((o) => o.id)]).toEqual(['s-1', 'a', ['turn-1', 'turn-1-op-2']]);
    expect(new Set(s.warnings.map((w) => w.code))).toEqual(new Set(['wrong_type', 'bad_timestamp', 'missing_field', 'out_of_order', 'incomplete_session']));
    expect(s.operations[1]?.usage).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
  });

  it('takes the id from the file name when no record carries one', () => {
    const s = parse([{ version: 3, recordType: 'turn_start', turn: 1 }], 0, '/x/session/abc-123.jsonl');
    expect([s.key, s.title]).toEqual(['ai-agent:abc-123', 'ai-agent session abc-123']);
  });
});
