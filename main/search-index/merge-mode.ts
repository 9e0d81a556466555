// Whether FTS5 merges its segments as writes come in (steady) or leaves them for the writer thread's tidy (bulk).
import type { DatabaseSync } from 'node:sqlite';

/**
 * Why: FTS5 writes each transaction's tokens as a new segment and, by default, merges segments as they pile up
 * ('automerge'). During a scan that rewrites the same text again and again: a batch's segment is merged with 7
 * others, that result with 7 others, and so on, one more time per factor of 8 in the index's size. At 100,000
 * sessions the writer thread spent about a third of its time merging (cold index 134.8 s with merges, 90.3 s
 * without). In bulk mode a scan's batches only add segments (searches read them all, slower but complete), and
 * the tidy pass after the scan merges them in one go: every byte is merged once (index-tidy.ts).
 */
export type MergeMode = 'steady' | 'bulk';

const TABLES = ['docs', 'idents', 'heads'] as const;

/**
 * Steady: merge once 8 segments of one size pile up, and at once past 16 (FTS5's default 'crisismerge'). FTS5's
 * default of 4 merged more often: each merge rewrites its segments, so fewer, larger merges write less (the writer
 * thread's work for the 10,000-session bench corpus, replayed alone, 10.2 -> 9.2 s; queries no slower).
 * Bulk: never merge while writing, unless 1,000 segments of one size pile up (16 GB of text at one segment per
 * 16 MB batch; FTS5 allows at most 2,000 segments in a table).
 */
const SETTINGS: Record<MergeMode, { automerge: number; crisismerge: number }> = {
  steady: { automerge: 8, crisismerge: 16 },
  bulk: { automerge: 0, crisismerge: 1000 },
};

/** The SQL that puts every full-text table in this mode (FTS5 keeps the setting in the file). */
export function mergeModeSql(mode: MergeMode): string {
  const { automerge, crisismerge } = SETTINGS[mode];
  return TABLES.map(
    (t) => `INSERT INTO ${t}(${t}, rank) VALUES ('automerge', ${automerge}); INSERT INTO ${t}(${t}, rank) VALUES ('crisismerge', ${crisismerge});`,
  ).join('\n');
}

export function setMergeMode(db: DatabaseSync, mode: MergeMode): void {
  db.exec(mergeModeSql(mode));
}

/** The mode the file is in: bulk when a scan's writes were left unmerged (also after a quit in the middle of one). */
export function mergeModeOf(db: DatabaseSync): MergeMode {
  const row = db.prepare("SELECT v FROM docs_config WHERE k = 'automerge'").get() as { v: number } | undefined;
  return row?.v === SETTINGS.bulk.automerge ? 'bulk' : 'steady';
}
