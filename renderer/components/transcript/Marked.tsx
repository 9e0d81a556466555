// Plain text with find-in-session matches wrapped in <mark>.
import { splitMatches } from './find.ts';

export function Marked({ text, query }: { text: string; query: string }) {
  if (!query) return <>{text}</>;
  const pieces = splitMatches(text, query);
  if (pieces.length === 1) return <>{text}</>;
  return (
    <>
      {pieces.map((piece, i) =>
        i % 2 === 1 ? (
          <mark key={i} className="find-hit">
            {piece}
          </mark>
        ) : (
          piece
        ),
      )}
    </>
  );
}
