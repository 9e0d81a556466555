// Benchmark: comparing two 5,000-message sessions (a re-run with edits, and an unrelated one), in process and through the worker.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { compareSessions } from '../../shared/compare/compare.ts';
import type { Comparison } from '../../shared/compare/comparison.ts';
import { normalizeSession } from '../../shared/compare/normalize.ts';
import type { Session } from '../../shared/session.ts';
import { benchServices } from './bench-services.ts';
import { claudeCodeReader } from '../sources/claude-code/claude-code.ts';
import { Prng } from './prng.ts';

interface TurnSpec {
  prompt: string;
  tool: string;
  input: Record<string, string>;
  result: string;
  error: boolean;
  reply: string;
}

export interface CompareFigures {
  scenario: string;
  messages: [number, number];
  /** Baselines: normalizing both sessions, and a textbook O(N·M) LCS over their messages (length only). */
  normalizeMs: number;
  naiveLcsMs: number;
  compareMs: number;
  payloadKb: number;
  /** Through the services: parse both files in the session worker and compare; then again from its cache. */
  firstMs: number;
  cachedMs: number;
  stats: Comparison['stats'];
}

const TURNS = 1250; // four messages a turn: prompt, call, result, reply

function turn(rng: Prng): TurnSpec {
  const tool = rng.pick(['Read', 'Bash', 'Grep', 'Edit']);
  const input: Record<string, string> =
    tool === 'Bash'
      ? { command: `npm test -- ${rng.text(12)}` }
      : tool === 'Grep'
        ? { pattern: rng.text(8) }
        : { file_path: `/home/dev/src/big/src/file${rng.int(1, 400)}.ts` };
  return { prompt: rng.text(rng.int(40, 300)), tool, input, result: rng.text(rng.int(200, 2000)), error: false, reply: rng.text(rng.int(100, 1200)) };
}

/** A few words replaced, as a person rewording a prompt or a model answering slightly differently. */
function reword(text: string, rng: Prng): string {
  const words = text.split(' ');
  for (let k = 0; k < 3; k++) words[rng.int(0, words.length - 1)] = rng.text(6).split(' ')[0] ?? 'changed';
  return words.join(' ');
}

/** The same task run again: ~2% of turns dropped, ~2% added, ~5% prompts reworded, ~11% replies changed, ~3% calls failing. */
function rerun(turns: readonly TurnSpec[], rng: Prng): TurnSpec[] {
  const out: TurnSpec[] = [];
  for (const t of turns) {
    const r = rng.next();
    if (r < 0.02) continue;
    if (r < 0.04) out.push(turn(rng));
    if (r >= 0.04 && r < 0.09) out.push({ ...t, prompt: reword(t.prompt, rng) });
    else if (r >= 0.09 && r < 0.2) out.push({ ...t, reply: reword(t.reply, rng) });
    else if (r >= 0.2 && r < 0.23) out.push({ ...t, error: true });
    else out.push(t);
  }
  return out;
}

/** A Claude Code transcript of the turns (what the reader parses in the end-to-end figure). */
async function writeTranscript(path: string, sessionId: string, turns: readonly TurnSpec[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  const base = { sessionId, cwd: '/home/dev/src/big', version: '2.1.150', gitBranch: 'main', isSidechain: false, userType: 'external' };
  const start = Date.parse('2026-06-01T09:00:00Z');
  let n = 0;
  let parent: string | null = null;
  const emit = async (record: Record<string, unknown>) => {
    const uuid = `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
    const line = `${JSON.stringify({ ...base, ...record, uuid, parentUuid: parent, timestamp: new Date(start + n * 3000).toISOString() })}\n`;
    parent = uuid;
    if (!out.write(line)) await once(out, 'drain');
  };
  const usage = { input_tokens: 1200, output_tokens: 300, cache_read_input_tokens: 20000, cache_creation_input_tokens: 0 };
  for (const [i, t] of turns.entries()) {
    await emit({ type: 'user', message: { role: 'user', content: t.prompt } });
    await emit({
      type: 'assistant',
      requestId: `r${i}`,
      message: { id: `m${i}`, role: 'assistant', model: 'claude-opus-4-7', usage, content: [{ type: 'tool_use', id: `t${i}`, name: t.tool, input: t.input }] },
    });
    await emit({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: t.result, is_error: t.error }] } });
    await emit({
      type: 'assistant',
      requestId: `r${i}b`,
      message: { id: `m${i}b`, role: 'assistant', model: 'claude-opus-4-7', usage, content: [{ type: 'text', text: t.reply }] },
    });
  }
  out.end();
  await once(out, 'finish');
}

/** Length of the longest common subsequence of message signatures by the full N×M table: the obvious way, for scale. */
function naiveLcs(a: Session, b: Session): number {
  const ids = new Map<string, number>();
  const sig = (s: Session) =>
    Int32Array.from(s.messages, (m) => {
      const k = `${m.role}:${m.parts.map((p) => (p.type === 'text' ? p.text : p.type === 'tool_call' ? p.name : p.type)).join('|')}`;
      return ids.get(k) ?? ids.set(k, ids.size).get(k)!;
    });
  const x = sig(a);
  const y = sig(b);
  let prev = new Int32Array(y.length + 1);
  let row = new Int32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) row[j] = x[i - 1] === y[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    [prev, row] = [row, prev];
  }
  return prev[y.length]!;
}

function median(run: () => void, times = 7): number {
  const samples: number[] = [];
  for (let k = 0; k < times; k++) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  samples.sort((p, q) => p - q);
  return Math.round(samples[Math.floor(times / 2)]! * 10) / 10;
}

async function scenario(name: string, a: TurnSpec[], b: TurnSpec[]): Promise<CompareFigures> {
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-compare-'));
  const root = join(base, 'root', 'projects', '-home-dev-src-big');
  const idA = 'aaaaaaaa-0000-4000-8000-000000000001';
  const idB = 'bbbbbbbb-0000-4000-8000-000000000002';
  try {
    await writeTranscript(join(root, `${idA}.jsonl`), idA, a);
    await writeTranscript(join(root, `${idB}.jsonl`), idB, b);
    const sa = await claudeCodeReader.read(join(root, `${idA}.jsonl`));
    const sb = await claudeCodeReader.read(join(root, `${idB}.jsonl`));
    const normalizeMs = median(() => {
      normalizeSession(sa);
      normalizeSession(sb);
    });
    const naiveLcsMs = median(() => naiveLcs(sa, sb), 3);
    let comparison: Comparison | null = null;
    const compareMs = median(() => {
      comparison = compareSessions(sa, sb);
    });
    const payloadKb = Math.round(Buffer.byteLength(JSON.stringify(comparison)) / 1024);

    const services = benchServices({
      dataDir: join(base, 'data'),
      shell: 'cli',
      extraRoots: [join(base, 'root')],
      discoverDefaults: false,
      watch: false,
      env: { HOME: join(base, 'home') },
    });
    try {
      await services.start();
      await services.whenScanned();
      const input = { a: `claude-code:${idA}`, b: `claude-code:${idB}` };
      let t0 = performance.now();
      await services.client.compareSessions(input);
      const firstMs = Math.round(performance.now() - t0);
      t0 = performance.now();
      await services.client.compareSessions(input);
      const cachedMs = Math.round(performance.now() - t0);
      const stats = (comparison as Comparison | null)?.stats ?? { same: 0, changed: 0, inserted: 0, deleted: 0 };
      return { scenario: name, messages: [sa.messages.length, sb.messages.length], normalizeMs, naiveLcsMs, compareMs, payloadKb, firstMs, cachedMs, stats };
    } finally {
      await services.close();
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

export async function benchCompare(): Promise<CompareFigures[]> {
  const rng = new Prng(7);
  const a = Array.from({ length: TURNS }, () => turn(rng));
  const other = new Prng(99);
  return [
    await scenario('re-run with edits', a, rerun(a, rng)),
    await scenario(
      'unrelated sessions',
      a,
      Array.from({ length: TURNS }, () => turn(other)),
    ),
  ];
}

export function printCompare(rows: readonly CompareFigures[]): void {
  console.log('\nCompare two sessions (target: alignment of two 5,000-message sessions < 300 ms, off the UI thread)');
  console.log('scenario              messages     normalize  naive LCS   compare  ÷normalize  ÷naive  payload  worker 1st  cached  same/changed/+/-');
  for (const r of rows) {
    const { same, changed, inserted, deleted } = r.stats;
    console.log(
      `${r.scenario.padEnd(20)} ${`${r.messages[0]}/${r.messages[1]}`.padStart(9)}  ${`${r.normalizeMs} ms`.padStart(10)}  ${`${r.naiveLcsMs} ms`.padStart(9)}  ${`${r.compareMs} ms`.padStart(8)}  ${`${(r.compareMs / r.normalizeMs).toFixed(1)}x`.padStart(10)}  ${`${(r.compareMs / r.naiveLcsMs).toFixed(2)}x`.padStart(6)}  ${`${r.payloadKb} KB`.padStart(7)}  ${`${r.firstMs} ms`.padStart(10)}  ${`${r.cachedMs} ms`.padStart(6)}  ${same}/${changed}/${inserted}/${deleted}`,
    );
  }
}
