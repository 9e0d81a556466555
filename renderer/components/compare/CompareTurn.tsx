// One aligned turn: both prompts side by side (word diff when edited), then the steps paired row by row, gaps where one side has none.
import type { Comparison, Step, StepRow, Turn, TurnRow } from '../../../shared/compare/comparison.ts';
import { formatDuration, formatNumber } from '../../../shared/compare/delta.ts';
import { STATUS_LABEL } from './compare-rows.ts';
import { CompareStep } from './CompareStep.tsx';
import { CompareWordDiff } from './CompareWordDiff.tsx';
import { plural } from '../../format.ts';

function Prompt({ turn, row, side }: { turn: Turn | undefined; row: TurnRow; side: 'a' | 'b' }) {
  if (!turn)
    return (
      <div className="cmp-cell cmp-gap">
        <span className="sr-only">no such turn on this side</span>
      </div>
    );
  return (
    <div className="cmp-cell cmp-prompt" data-testid="compare-prompt" data-side={side}>
      {turn.prompt === null ? (
        <span className="muted">(before the first prompt)</span>
      ) : row.promptDiff ? (
        <CompareWordDiff segments={row.promptDiff} side={side} />
      ) : (
        turn.prompt
      )}
    </div>
  );
}

function metrics(turn: Turn | undefined): string {
  if (!turn) return '';
  const parts = [`${turn.messageCount} msg`];
  if (turn.toolCalls) parts.push(plural(turn.toolCalls, 'tool'));
  if (turn.tokens) parts.push(`${formatNumber(turn.tokens)} tok`);
  if (turn.durationMs !== null) parts.push(formatDuration(turn.durationMs));
  return parts.join(' · ');
}

/** Steps as aligned pairs: a changed turn has its step rows; an identical one pairs in order; a one-sided one faces gaps. */
function stepPairs(row: TurnRow, a: readonly Step[], b: readonly Step[]): Array<{ a: Step | undefined; b: Step | undefined; row: StepRow | null }> {
  if (row.status === 'changed') return row.steps.map((s) => ({ a: s.a !== null ? a[s.a] : undefined, b: s.b !== null ? b[s.b] : undefined, row: s }));
  const n = Math.max(a.length, b.length);
  // A one-sided turn's steps are all inserted (or deleted) with it.
  const oneSided = (i: number): StepRow | null =>
    row.status === 'same' ? null : { status: row.status, a: a[i] ? i : null, b: b[i] ? i : null, moved: false, aspects: [], diff: null };
  return Array.from({ length: n }, (_, i) => ({ a: a[i], b: b[i], row: oneSided(i) }));
}

export function CompareTurn({ c, index, current }: { c: Comparison; index: number; current: boolean }) {
  const row = c.rows[index] as TurnRow;
  const ta = row.a !== null ? c.a.turns[row.a] : undefined;
  const tb = row.b !== null ? c.b.turns[row.b] : undefined;
  const pairs = stepPairs(row, ta?.steps ?? [], tb?.steps ?? []);
  return (
    <section
      className={`cmp-turn st-${row.status}${current ? ' current' : ''}`}
      data-testid="compare-turn"
      data-status={row.status}
      data-row={index}
      data-current={current ? 'true' : undefined}
    >
      <div className="cmp-turn-head">
        <span className="cmp-cell-head">
          {row.a !== null ? `Turn ${row.a + 1}` : '—'} <span className="muted">{metrics(ta)}</span>
        </span>
        <span className={`cmp-status st-${row.status}`}>{STATUS_LABEL[row.status]}</span>
        <span className="cmp-cell-head">
          {row.b !== null ? `Turn ${row.b + 1}` : '—'} <span className="muted">{metrics(tb)}</span>
        </span>
      </div>
      <div className="cmp-grid">
        <Prompt turn={ta} row={row} side="a" />
        <Prompt turn={tb} row={row} side="b" />
        {pairs.map((p, i) => (
          <StepPair key={i} a={p.a} b={p.b} row={p.row} />
        ))}
      </div>
    </section>
  );
}

function StepPair({ a, b, row }: { a: Step | undefined; b: Step | undefined; row: StepRow | null }) {
  return (
    <>
      <CompareStep step={a} row={row} side="a" />
      <CompareStep step={b} row={row} side="b" />
    </>
  );
}
