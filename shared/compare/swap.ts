// Swaps the sides of a comparison without recomputing it: B becomes A, insertions become deletions, deltas turn around.
import type { AlignRow, Comparison, FileRow, HeaderRow, RowStatus, StepRow, TurnRow, WordSegment } from './comparison.ts';
import { formatDelta } from './delta.ts';

const FLIP: Record<RowStatus, RowStatus> = { same: 'same', changed: 'changed', inserted: 'deleted', deleted: 'inserted' };
const FLIP_FILE: Record<FileRow['status'], FileRow['status']> = { same: 'same', changed: 'changed', 'only-a': 'only-b', 'only-b': 'only-a' };

/** A diff that rebuilt B from A now rebuilds A from B; runs of del+ins keep deletions first. */
function flipDiff(diff: WordSegment[] | null): WordSegment[] | null {
  if (!diff) return null;
  const out: WordSegment[] = [];
  let i = 0;
  while (i < diff.length) {
    const seg = diff[i] as WordSegment;
    if (seg.op === 'eq') {
      out.push(seg);
      i++;
      continue;
    }
    const dels: WordSegment[] = [];
    const inss: WordSegment[] = [];
    while (i < diff.length && (diff[i] as WordSegment).op !== 'eq') {
      const s = diff[i] as WordSegment;
      (s.op === 'del' ? inss : dels).push({ op: s.op === 'del' ? 'ins' : 'del', text: s.text });
      i++;
    }
    out.push(...dels, ...inss);
  }
  return out;
}

function flipAlign<T extends AlignRow>(row: T): T {
  return { ...row, status: FLIP[row.status], a: row.b, b: row.a };
}

function flipStep(row: StepRow): StepRow {
  return { ...flipAlign(row), diff: flipDiff(row.diff) };
}

function flipTurn(row: TurnRow): TurnRow {
  return { ...flipAlign(row), promptDiff: flipDiff(row.promptDiff), steps: row.steps.map(flipStep) };
}

function flipHeader(row: HeaderRow): HeaderRow {
  return { ...row, a: row.b, b: row.a, av: row.bv, bv: row.av, delta: row.unit ? formatDelta(row.unit, row.bv, row.av) : null };
}

export function swapComparison(c: Comparison): Comparison {
  return {
    ...c,
    a: c.b,
    b: c.a,
    header: c.header.map(flipHeader),
    rows: c.rows.map(flipTurn),
    operationRows: c.operationRows.map(flipAlign),
    files: c.files.map((f) => ({ ...f, a: f.b, b: f.a, status: FLIP_FILE[f.status] })),
    stats: { ...c.stats, inserted: c.stats.deleted, deleted: c.stats.inserted },
  };
}
