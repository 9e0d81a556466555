// The comparison as plain text for `session-vault diff`: header deltas, aligned turns with [-word-]{+diffs+}, files, operations.
import type { AlignRow, Comparison, ComparedSide, HeaderRow, Step, StepRow, TurnRow, WordSegment } from '../../shared/compare/comparison.ts';

export interface TextOptions {
  /** Print identical turns and header rows too instead of folding them. */
  all?: boolean;
}

const MARK: Record<TurnRow['status'], string> = { same: '=', changed: '~', inserted: '+', deleted: '-' };
const LINE = 160;

const oneLine = (text: string, max = LINE) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** git's word-diff markers: [-removed-]{+added+}. */
export function markDiff(diff: readonly WordSegment[], max = 400): string {
  const text = diff.map((s) => (s.op === 'eq' ? s.text : s.op === 'del' ? `[-${s.text}-]` : `{+${s.text}+}`)).join('');
  return oneLine(text, max);
}

function pad(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function stepLine(step: Step): string {
  if (step.kind === 'text') return `text  ${oneLine(step.text)}`;
  if (step.kind === 'event') return `event ${step.label}`;
  const name = step.family === step.name.toLowerCase() ? step.name : `${step.name} (${step.family})`;
  return `tool  ${name}: ${oneLine(step.target ?? step.args, 120)} [${step.status}]`;
}

function stepRowLine(row: StepRow, a: readonly Step[], b: readonly Step[]): string {
  const x = row.a !== null ? a[row.a] : undefined;
  const y = row.b !== null ? b[row.b] : undefined;
  const mark = row.moved ? '↕' : MARK[row.status];
  if (row.status !== 'changed' || !x || !y) return `      ${mark} ${stepLine((y ?? x) as Step)}`;
  if (x.kind === 'tool' && y.kind === 'tool') {
    const name = x.name === y.name ? y.name : `${x.name} → ${y.name}`;
    const what = row.diff ? markDiff(row.diff, 200) : oneLine(y.target ?? y.args, 120);
    const status = x.status === y.status ? y.status : `${x.status} → ${y.status}`;
    return `      ~ tool  ${name}: ${what} [${status}]  (${row.aspects.join(', ')})`;
  }
  return `      ~ ${y.kind === 'text' ? 'text ' : 'event'} ${row.diff ? markDiff(row.diff) : stepLine(y)}`;
}

const num = (i: number | null) => (i === null ? '—' : String(i + 1));

function turnLines(c: Comparison, row: TurnRow): string[] {
  const ta = row.a !== null ? c.a.turns[row.a] : undefined;
  const tb = row.b !== null ? c.b.turns[row.b] : undefined;
  const prompt = row.promptDiff ? markDiff(row.promptDiff) : oneLine((tb ?? ta)?.prompt ?? '(before the first prompt)');
  const lines = [`${MARK[row.status]} ${pad(`${num(row.a)} ↔ ${num(row.b)}`, 9)} ${prompt}`];
  if (row.status === 'changed') {
    for (const s of row.steps) lines.push(stepRowLine(s, ta?.steps ?? [], tb?.steps ?? []));
  } else if (row.status !== 'same') {
    const turn = (ta ?? tb)?.steps ?? [];
    for (const s of turn) lines.push(`      ${MARK[row.status]} ${stepLine(s)}`);
  }
  return lines;
}

function turnSection(c: Comparison, all: boolean): string[] {
  const out: string[] = [];
  let run: TurnRow[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const first = run[0] as TurnRow;
    const last = run[run.length - 1] as TurnRow;
    const span = run.length === 1 ? num(first.a) : `${num(first.a)}-${num(last.a)}`;
    out.push(`= ${pad(span, 9)} ${run.length} identical turn${run.length === 1 ? '' : 's'}`);
    run = [];
  };
  for (const row of c.rows) {
    if (row.status === 'same' && !all) {
      run.push(row);
      continue;
    }
    flush();
    out.push(...turnLines(c, row));
  }
  flush();
  return out;
}

function headerSection(rows: readonly HeaderRow[], all: boolean): string[] {
  const shown = rows.filter((r) => all || !r.same);
  const hidden = rows.length - shown.length;
  const lines = shown.map((r) =>
    `  ${pad(r.label, 22)} ${pad(r.a ?? '—', 34)} ${pad(r.b ?? '—', 34)} ${r.delta && r.delta !== 'same' ? r.delta : ''}`.trimEnd(),
  );
  if (hidden > 0) lines.push(`  (${hidden} more field${hidden === 1 ? '' : 's'} identical; --all shows them)`);
  return lines;
}

function opLine(side: ComparedSide, i: number | null): string {
  if (i === null) return '—';
  const op = side.operations[i];
  if (!op) return '—';
  return `${'  '.repeat(op.depth)}${op.type}${op.name ? ` ${op.name}` : ''}${op.status ? ` (${op.status})` : ''}${op.vcs ? ` ${op.vcs}` : ''}`;
}

function operationSection(c: Comparison): string[] {
  if (c.operationRows.length === 0) return ['  No operations recorded in either session.'];
  return c.operationRows.map((r: AlignRow) => `  ${MARK[r.status]} ${pad(opLine(c.a, r.a), 48)} ${opLine(c.b, r.b)}`.trimEnd());
}

export function formatComparisonText(c: Comparison, options: TextOptions = {}): string {
  const all = options.all ?? false;
  const { same, changed, inserted, deleted } = c.stats;
  const lines = [
    `A  ${c.a.key}  ${c.a.title}`,
    `B  ${c.b.key}  ${c.b.title}`,
    `Turns: ${same} same, ${changed} changed, ${inserted} only in B, ${deleted} only in A (compared in ${c.elapsedMs} ms)`,
    '',
    `HEADER${' '.repeat(19)}${pad('A', 34)} ${pad('B', 34)} DIFFERENCE`,
    ...headerSection(c.header, all),
    '',
    'TURNS  (= same, ~ changed, + only in B, - only in A, ↕ moved; [-A only-]{+B only+})',
    ...turnSection(c, all),
    '',
    'FILES TOUCHED',
    ...(c.files.length
      ? c.files.map(
          (f) =>
            `  ${MARK[f.status === 'only-a' ? 'deleted' : f.status === 'only-b' ? 'inserted' : f.status]} ${pad(f.path, 48)} ${pad(f.a.join(',') || '—', 8)} ${f.b.join(',') || '—'}`,
        )
      : ['  No files recorded in either session.']),
    '',
    'OPERATIONS',
    ...operationSection(c),
  ];
  return `${lines.join('\n')}\n`;
}
