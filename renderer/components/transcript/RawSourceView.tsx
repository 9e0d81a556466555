// The raw tab: the session's source file as written, read in windows with "load more".
import { useEffect } from 'react';
import type { SourceFile } from '../../../shared/session.ts';
import { formatBytes } from '../../format.ts';
import { useAppStore } from '../../store/store-context.ts';

export function RawSourceView(props: { sessionKey: string; files: SourceFile[] }) {
  const raw = useAppStore((s) => s.raw);
  const loadRaw = useAppStore((s) => s.loadRaw);
  const loadMoreRaw = useAppStore((s) => s.loadMoreRaw);
  const needsLoad = !raw || raw.key !== props.sessionKey;

  useEffect(() => {
    if (needsLoad) void loadRaw(0);
  }, [needsLoad, loadRaw]);

  const current = raw && raw.key === props.sessionKey ? raw : null;
  return (
    <div className="raw">
      <div className="raw-toolbar">
        {props.files.length > 1 && (
          <select aria-label="Source file" value={current?.fileIndex ?? 0} onChange={(e) => void loadRaw(Number(e.target.value))}>
            {props.files.map((f, i) => (
              <option key={f.path} value={i}>
                {f.role}: {f.path}
              </option>
            ))}
          </select>
        )}
        {current?.path && (
          <span className="mono muted" title={current.path}>
            {current.path} · {formatBytes(current.size)}
            {current.truncated ? ' · partial' : ''}
          </span>
        )}
      </div>
      {current?.error && (
        <div className="error-banner" role="alert">
          Could not read the source file: {current.error}{' '}
          <button type="button" onClick={() => void loadRaw(current.fileIndex)}>
            Retry
          </button>
        </div>
      )}
      <pre className="raw-source" data-testid="raw-source">
        {current?.text}
      </pre>
      {current?.loading && <p className="muted">Loading…</p>}
      {current?.truncated && !current.loading && (
        <button type="button" className="more" onClick={() => void loadMoreRaw()}>
          Load more
        </button>
      )}
    </div>
  );
}
