// A list row's badge while it is marked for comparing (A or B), or while it waits as the session being compared.
import { useAppStore } from '../../store/store-context.ts';

export function CompareRowMark({ rowKey }: { rowKey: string }) {
  const at = useAppStore((s) => s.compareMarks.indexOf(rowKey));
  const picking = useAppStore((s) => s.comparePick === rowKey);
  if (at < 0 && !picking) return null;
  const label = picking || at === 0 ? 'A' : 'B';
  return (
    <span className="badge compare-mark-badge" data-testid="compare-row-mark" title={`Marked as ${label} for comparing`}>
      {label}
    </span>
  );
}
