// The status line at the foot of the window: indexing progress while the index is built (the list stays usable), that search is still catching up, then that it is up to date.
import { catchingUpText, idleText, progressFraction, progressText } from '../index-progress.ts';
import { useAppStore } from '../store/store-context.ts';

/** Always rendered at one fixed height, so progress coming and going never moves the list under the pointer. */
export function StatusLine() {
  const progress = useAppStore((s) => s.indexProgress);
  const scanning = progress?.phase === 'scanning';
  const catchingUp = progress ? catchingUpText(progress) : null;
  return (
    <footer className="status-bar" data-testid="status-bar">
      {scanning && progress && <IndexProgressLine fraction={progressFraction(progress)} text={progressText(progress)} />}
      {catchingUp && (
        <span className="status-text muted" data-testid="search-catching-up" role="status">
          {catchingUp}
        </span>
      )}
      {!scanning && !catchingUp && progress && (
        <span className="status-text muted" data-testid="index-idle">
          {idleText(progress)}
        </span>
      )}
    </footer>
  );
}

function IndexProgressLine({ fraction, text }: { fraction: number; text: string }) {
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
