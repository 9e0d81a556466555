// Whether FTS5 merges its segments as writes come in (steady) or leaves them for the writer thread's tidy (bulk).
import { BULK_CRISISMERGE, STEADY_AUTOMERGE, STEADY_CRISISMERGE } from '../env/tuning.ts';
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
 * Steady: merge once STEADY_AUTOMERGE segments of one size pile up, and at once past STEADY_CRISISMERGE. Bulk:
 * never merge while writing ('automerge' 0), unless BULK_CRISISMERGE segments of one size pile up. The numbers and
 * their measurements are in env/tuning.ts.
 */
const SETTINGS: Record<MergeMode, { automerge: number; crisismerge: number }> = {
  steady: { automerge: STEADY_AUTOMERGE, crisismerge: STEADY_CRISISMERGE },
  bulk: { automerge: 0, crisismerge: BULK_CRISISMERGE },
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
