// A set's usage and sessions from one read of its files' packs (usage-file-pack.ts): what the others of a query matching most files add, without reading their day rows and then their session rows.
import type { DashboardBreakdown } from '../../shared/usage-api.ts';
import { PackReader, type PackVisitor } from './usage-file-pack.ts';
import { sessionTally, setSums, type SetSessions, type SetUsage } from './usage-file-days.ts';
import type { UsageSource } from './usage-match.ts';
import { eachId } from './usage-id-bits.ts';
import { OTHERS_TABLE } from './usage-scope-table.ts';

/**
 * The others' usage over all time (setUsage's, unbounded, with the heatmap's hours as triples) and their tools and
 * buckets (setSessions'), added up in the same order as those read them, so the figures are the same to the last bit.
 * Null when one of them has no pack, or one this version does not read (the caller reads the rows instead).
 */
export function packedOthers(source: Pick<UsageSource, 'index'>, breakdown: DashboardBreakdown): { usage: SetUsage; sessions: SetSessions } | null {
  const sums = setSums(breakdown);
  const tally = sessionTally();
  const triples = new Map<string, number[]>();
  const reader = new PackReader();
  let file = 0;
  let format = '';
  let project = '';
  // The current row's day's hours (looked up once per row, not per hour).
  let hours: number[] = [];
  const visit: PackVisitor = {
    file: (f, p, topLevel, lengthBucket, turns) => {
      format = f;
      project = p;
      tally.addSession(topLevel, lengthBucket, turns);
    },
    tool: tally.addTool,
    row: (day, model, values) => {
      sums.add(file, day, model, format, project, values, 0);
      const kept = triples.get(day);
      if (kept) hours = kept;
      else triples.set(day, (hours = []));
    },
    hour: (hour, calls, tokens) => {
      hours.push(hour, calls, tokens);
    },
  };
  // Every one of the others has a session row (storeOthers), and so a pack. All of them end to end in one value, their
  // ids and lengths in two more (group_concat keeps a blob's bytes in a UTF-8 database; read wrong, a pack is refused
  // and the rows are read): not a Uint8Array per pack made and collected (100,000 sessions, 'parser', this function
  // alone, CPU: 46 -> 35 ms at best, 60 -> 50 ms median).
  const packs = source.index
    .prepared(
      `SELECT count(*) AS n, count(p.pack) AS packed, group_concat(x.id) AS ids, group_concat(length(p.pack)) AS lengths, CAST(group_concat(p.pack, '') AS BLOB) AS bytes
      FROM ${OTHERS_TABLE} x LEFT JOIN usage_file_packs p ON p.file_id = x.id`,
    )
    .get() as { n: number; packed: number; ids: string | null; lengths: string | null; bytes: Uint8Array | null };
  if (packs.packed !== packs.n) return null;
  const ids: number[] = [];
  eachId(packs.ids, (id) => ids.push(id));
  const bytes = packs.bytes ?? new Uint8Array(0);
  let at = 0;
  let i = 0;
  let ok = true;
  eachId(packs.lengths, (length) => {
    if (!ok) return;
    file = ids[i++] as number;
    ok = reader.read(bytes, visit, at, at + length);
    at += length;
  });
  if (!ok || at !== bytes.length) return null;
  return { usage: sums.result(new Map(), triples), sessions: tally.result() };
}
