// One side of a word diff: A shows what it had that B lacks struck out, B shows what it added highlighted.
import type { WordSegment } from '../../../shared/compare/comparison.ts';

export function CompareWordDiff({ segments, side }: { segments: readonly WordSegment[]; side: 'a' | 'b' }) {
  return (
    <>
      {segments.map((s, i) => {
        if (s.op === 'eq') return <span key={i}>{s.text}</span>;
        if (s.op === 'del') {
          return side === 'a' ? (
            <del key={i} className="wd-del" data-testid="word-del">
              {s.text}
            </del>
          ) : null;
        }
        return side === 'b' ? (
          <ins key={i} className="wd-ins" data-testid="word-ins">
            {s.text}
          </ins>
        ) : null;
      })}
    </>
  );
}
