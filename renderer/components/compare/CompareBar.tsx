// Above the list: how to pick two sessions to compare ("Compare with…" for the open one, or Ctrl/⌘-click two rows).
import { useAppStore } from '../../store/store-context.ts';

export function CompareBar() {
  const marks = useAppStore((s) => s.compareMarks);
  const pick = useAppStore((s) => s.comparePick);
  const openKey = useAppStore((s) => (s.open?.session ? s.open.key : null));
  const comparing = useAppStore((s) => s.compare !== null);
  const sessions = useAppStore((s) => s.sessions);
  const titleOf = (key: string) => sessions.find((x) => x.key === key)?.title ?? key;
  const startPick = useAppStore((s) => s.startComparePick);
  const cancelPick = useAppStore((s) => s.cancelComparePick);
  const clearMarks = useAppStore((s) => s.clearCompareMarks);
  const openCompare = useAppStore((s) => s.openCompare);

  if (pick) {
    return (
      <div className="compare-bar picking" data-testid="compare-bar" role="status">
        <span>
          Pick the session to compare with <strong>{titleOf(pick)}</strong>
        </span>
        <button type="button" className="link-button" title="Stop picking (Esc)" onClick={cancelPick}>
          Cancel
        </button>
      </div>
    );
  }
  if (marks.length > 0) {
    const [a, b] = marks;
    return (
      <div className="compare-bar" data-testid="compare-bar">
        {b && a ? (
          <button type="button" className="primary" data-testid="compare-marked" onClick={() => void openCompare(a, b)}>
            Compare the 2 marked sessions
          </button>
        ) : (
          <span className="muted">1 marked — Ctrl/⌘-click another session to compare</span>
        )}
        <button type="button" className="link-button" title="Unmark them (Esc)" onClick={clearMarks}>
          Clear
        </button>
      </div>
    );
  }
  if (!openKey || comparing) return null;
  return (
    <div className="compare-bar" data-testid="compare-bar">
      <button
        type="button"
        data-testid="compare-with"
        onClick={() => startPick(openKey)}
        title="Then click the other session in the list (or Ctrl/⌘-click two rows)"
      >
        Compare with…
      </button>
    </div>
  );
}
