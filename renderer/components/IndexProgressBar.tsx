// A thin bar under the top bar while the index is being built; the list stays usable meanwhile, and the bar goes when idle.
import { progressFraction, progressText } from '../index-progress.ts';
import { useAppStore } from '../store-context.ts';

export function IndexProgressBar() {
  const progress = useAppStore((s) => s.indexProgress);
  if (!progress || progress.phase !== 'scanning') return null;
  const fraction = progressFraction(progress);
  const text = progressText(progress);
  return (
    <div className="index-progress" data-testid="index-progress" role="status">
      <div
        className="index-progress-track"
        role="progressbar"
        aria-label="Indexing"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(fraction * 100)}
        aria-valuetext={text}
      >
        <div className="index-progress-fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
      <span className="index-progress-text muted">{text}</span>
    </div>
  );
}
