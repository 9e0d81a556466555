// A set's usage and sessions from one read of its files' packs (usage-file-pack.ts): what the others of a query matching most files add, without reading their day rows and then their session rows.
import type { DashboardBreakdown } from '../../shared/usage-api.ts';
import { PackReader, type PackVisitor } from './usage-file-pack.ts';
import { sessionTally, setSums, type SetSessions, type SetUsage } from './usage-file-days.ts';
import type { UsageSource } from './usage-match.ts';
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
  // Every one of the others has a session row (storeOthers), and so a pack.
  const packs = source.index.prepared(`SELECT x.id, p.pack FROM ${OTHERS_TABLE} x LEFT JOIN usage_file_packs p ON p.file_id = x.id`);
  packs.setReturnArrays(true);
  // All at once (3 MB at 100,000 sessions), then read: interleaved with stepping the rows one by one, the fastest
  // tenth of runs 44 -> 41 ms by model and 49 -> 44 ms by project (CPU, this function alone).
  for (const r of packs.all() as unknown as unknown[][]) {
    file = r[0] as number;
    const pack = r[1] as Uint8Array | null;
    if (pack === null || !reader.read(pack, visit)) return null;
  }
  return { usage: sums.result(new Map(), triples), sessions: tally.result() };
}
