// The usage and dashboard tests' catalogue: kept copies under /vault/sessions/<key>/source/ (their live file shadows them), sessions put as a scan puts them, with their usage facts, the bench's varied sessions, each file's pack beside its rows, and the dashboard answered both ways.
import type { Session } from '../../shared/session.ts';
import { syntheticSession } from '../bench/usage-dashboard.ts';
import { Prng } from '../bench/prng.ts';
import type { SessionIndex } from './index-store.ts';
import { IndexedCatalogue } from './indexed-catalogue.ts';
import { readResult } from './test-sessions.ts';
import { usageDashboard } from './usage-dashboard.ts';
import { usageFacts } from './usage-facts.ts';
import { packFile } from './usage-file-pack.ts';

/** Where kept copies live: `/vault/sessions/<key>/source/<path>`. */
export const VAULT = '/vault/sessions/';

export const vaultCatalogue = (index: SessionIndex) =>
  new IndexedCatalogue(
    index,
    (path) => (path.startsWith(VAULT) ? 'copy' : null),
    () => '',
    (path) => (path.startsWith(VAULT) ? path.slice(VAULT.length, path.indexOf('/source/')) : null),
  );

/** `s` listed at `path` with its index text and usage facts, as the scan workers send it. */
export function putWithUsage(catalogue: IndexedCatalogue, path: string, s: Session): void {
  const { result, text } = readResult(s);
  catalogue.put(path, 100, 1, result.ok ? { ...result, text, usage: usageFacts(s) } : result);
}

/**
 * The dashboard as the app answers it (its fast paths) and from every counted file's hourly rows (the reference), each
 * number to 12 significant digits (the two add up in another order).
 */
export function dashboardBothWays(catalogue: IndexedCatalogue, query: string, breakdown: 'model' | 'source' | 'project', timezone: string, now: number) {
  catalogue.index.flush();
  const pick = (d: ReturnType<typeof usageDashboard>) =>
    JSON.parse(JSON.stringify({ ...d, tookMs: 0 }), (_, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v)) as typeof d;
  return [
    pick(usageDashboard(catalogue, { query, timezone, breakdown }, () => null, now)),
    pick(usageDashboard(catalogue, { query, timezone, breakdown }, () => null, now, true)),
  ] as const;
}

/**
 * The bench's sessions (three sources, 40 projects over a year, several models a session, sub-agents for a quarter
 * of the Claude ones, tools that fail), with kept copies of some (shadowed by the live file) and of a few whose live
 * file is gone (counted as the copy).
 */
export function fillVaried(catalogue: IndexedCatalogue, sessions: number, copies = true): void {
  const rng = new Prng(11);
  for (let n = 0; n < sessions; n++) {
    const s = syntheticSession(rng, n);
    const path = s.sourceFiles[0]?.path as string;
    const kept = copies && n % 17 === 0;
    const gone = copies && n % 29 === 0;
    if (!gone) putWithUsage(catalogue, path, s);
    if (kept || gone) putWithUsage(catalogue, `${VAULT}${s.key}/source${path}`, s);
    if (s.format === 'claude-code' && rng.next() < 0.25) {
      const sub = syntheticSession(rng, sessions + n, s.key);
      putWithUsage(catalogue, sub.sourceFiles[0]?.path as string, sub);
    }
  }
}

/** The session with every call (and its own model) made by `model`. */
export function callingModel(s: Session, model: string): Session {
  return { ...s, model: { provider: null, name: model, parameters: {} }, messages: s.messages.map((m) => (m.model ? { ...m, model } : m)) };
}

/** The pack of what a file's session row and day rows hold (as the writer packs them), `extraInput` tokens added to its first day. */
export function packOfRows(index: SessionIndex, fileId: number, extraInput = 0): Uint8Array {
  const s = index.prepared('SELECT format, project, top_level, length_bucket, turns, tools FROM usage_sessions WHERE file_id = ?').get(fileId) as {
    format: string;
    project: string;
    top_level: number;
    length_bucket: number;
    turns: number;
    tools: string | null;
  };
  const days = index
    .prepared('SELECT day, model, input, output, cache_read, cache_write, reasoning, cost, unpriced, calls, hours FROM usage_file_days WHERE file_id = ?')
    .all(fileId) as Array<Record<string, number> & { day: string; model: string; hours: string }>;
  return packFile({
    format: s.format,
    project: s.project,
    topLevel: s.top_level,
    lengthBucket: s.length_bucket,
    turns: s.turns,
    tools: s.tools ? (JSON.parse(s.tools) as Array<[string, number, number]>) : [],
    days: days.map((d, i) => ({
      day: d.day,
      model: d.model,
      sums: [Number(d.input) + (i === 0 ? extraInput : 0), d.output, d.cache_read, d.cache_write, d.reasoning, d.cost, d.unpriced, d.calls].map(Number),
      hours: JSON.parse(d.hours) as Array<[number, number, number]>,
    })),
  });
}

/** Every file's pack, and the pack of what its session row and day rows hold, by file id. */
export function packsAndRows(index: SessionIndex): { packs: Map<number, Uint8Array>; rows: Map<number, Uint8Array> } {
  index.flush();
  const packs = new Map(
    (index.prepared('SELECT file_id, pack FROM usage_file_packs').all() as Array<{ file_id: number; pack: Uint8Array }>).map((r) => [r.file_id, r.pack]),
  );
  const ids = index.prepared('SELECT file_id FROM usage_sessions').all() as Array<{ file_id: number }>;
  return { packs, rows: new Map(ids.map(({ file_id }) => [file_id, packOfRows(index, file_id)])) };
}
