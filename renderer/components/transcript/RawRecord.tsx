// The small "raw" action on a message or operation and the source record it opens inline.
import type { Origin } from '../../../shared/session.ts';
import { useAppStore } from '../../store/store-context.ts';
import { canLoadRecord } from '../../store/store-related.ts';

export function RawButton({ ownerId, origin }: { ownerId: string; origin: Origin | null }) {
  const toggle = useAppStore((s) => s.toggleRawRecord);
  const isOpen = useAppStore((s) => ownerId in s.rawRecords);
  if (!canLoadRecord(origin)) return null;
  const where = origin.line !== null ? `line ${origin.line}` : origin.pointer;
  return (
    <button
      type="button"
      className="raw-action"
      aria-pressed={isOpen}
      title={`Show the source record (file ${origin.fileIndex}, ${where})`}
      onClick={() => void toggle(ownerId, origin)}
    >
      raw
    </button>
  );
}

export function RawRecordPanel({ ownerId }: { ownerId: string }) {
  const view = useAppStore((s) => s.rawRecords[ownerId]);
  if (!view) return null;
  return (
    <div className="raw-record" data-testid="raw-record">
      {view.loading && <span className="muted">Loading the source record…</span>}
      {view.error && (
        <span className="error-text" role="alert">
          Could not load the source record: {view.error}
        </span>
      )}
      {!view.loading && !view.error && (
        <>
          <div className="raw-record-path mono muted" title={view.path ?? undefined}>
            {view.path}
            {view.truncated ? ' · cut at the size limit' : ''}
          </div>
          <pre>{view.text}</pre>
        </>
      )}
    </div>
  );
}
