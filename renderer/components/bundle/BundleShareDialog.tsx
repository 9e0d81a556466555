// The share dialog: pick a format, review every secret found (untick a false positive to keep it), export with progress, save.
import { useAppStore } from '../../store/store-context.ts';
import { formatBytes, plural } from '../../format.ts';
import type { ShareState } from '../../store/store-bundle.ts';
import type { BundleFormat } from '../../../shared/bundle-api.ts';
import { ModalDialog } from '../ModalDialog.tsx';
import { BundleRefusedFiles } from './BundleRefusedFiles.tsx';

const FORMATS: Array<{ value: BundleFormat; label: string }> = [
  { value: 'zip', label: 'Bundle (.zip) — sources, session.json, checksums; imports into any Session Vault' },
  { value: 'md', label: 'Markdown — ProjectHub’s vault style' },
  { value: 'html', label: 'HTML — one page that reads offline' },
];

/**
 * How far a scan, an export or a save is: over several sessions by sessions (their bytes are known one session at a
 * time, so a byte total would grow as it goes), with the bytes read so far; otherwise by bytes. Moving, without a
 * figure, until the first report.
 */
function ProgressLine({ progress }: { progress: ShareState['progress'] }) {
  const { sessionsDone, sessionsTotal } = progress ?? {};
  if (sessionsTotal !== undefined && sessionsDone !== undefined && sessionsTotal > 1)
    return (
      <>
        <progress max={sessionsTotal} value={sessionsDone} /> {sessionsDone.toLocaleString()} of {plural(sessionsTotal, 'session')} ·{' '}
        {formatBytes(progress?.done ?? 0)} read
      </>
    );
  if (!progress?.total) return <progress />;
  return (
    <>
      <progress max={progress.total} value={progress.done} /> {formatBytes(progress.done)} of {formatBytes(progress.total)}
    </>
  );
}

function Findings() {
  const share = useAppStore((s) => s.share);
  const toggle = useAppStore((s) => s.toggleFinding);
  if (!share?.redact) return <p className="muted">Redaction is off: the files go out byte-for-byte, secrets included.</p>;
  if (share.phase === 'scanning') {
    return (
      <p className="muted" role="status" data-testid="bundle-scanning">
        Scanning every file for secrets… <ProgressLine progress={share.progress} />
      </p>
    );
  }
  if (!share.findings.length)
    return (
      <p className="ok-text" data-testid="bundle-no-findings">
        No secrets found.
      </p>
    );
  const kept = new Set(share.kept);
  const redacted = share.findings.length - share.findings.filter((f) => kept.has(f.id)).length;
  return (
    <fieldset className="delete-files">
      <legend data-testid="bundle-findings-summary">
        {redacted} of {plural(share.findings.length, 'finding')} will be redacted. Untick a false positive to leave it as it is.
      </legend>
      {share.findings.length > FINDINGS_AT_A_GLANCE && (
        <p className="muted small" data-testid="bundle-findings-more">
          All {share.findings.length} findings are listed below, none folded away: scroll the dialog to review every one.
        </p>
      )}
      <ul className="vault-list findings-list">
        {share.findings.map((f) => (
          <li key={f.id}>
            <label className="delete-file" data-testid="bundle-finding" data-rule={f.rule} data-id={f.id}>
              <input type="checkbox" data-testid="bundle-finding-toggle" checked={!kept.has(f.id)} onChange={() => toggle(f.id)} />
              <span>
                <strong>{f.rule}</strong>{' '}
                <span className="muted mono small">
                  {f.file.split('/').slice(-2).join('/')}:{f.line}
                </span>
                <br />
                <span className="mono small" data-testid="bundle-finding-preview">
                  {f.preview}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** About as many findings as fit on a laptop screen beside the dialog's other parts; more get a note that the list goes on. */
const FINDINGS_AT_A_GLANCE = 6;

export function BundleShareDialog() {
  const share = useAppStore((s) => s.share);
  const setFormat = useAppStore((s) => s.setShareFormat);
  const setRedact = useAppStore((s) => s.setRedact);
  const startExport = useAppStore((s) => s.startExport);
  const cancel = useAppStore((s) => s.cancelShare);
  const saveAgain = useAppStore((s) => s.saveAgain);
  if (!share) return null;
  const busy = share.phase === 'exporting' || share.phase === 'saving';
  const count = share.keys.length;
  return (
    <ModalDialog labelledBy="bundle-share-title" testId="bundle-share-dialog" onEscape={() => void cancel()}>
      <h2 id="bundle-share-title">Share {plural(count, 'session')}</h2>
      <fieldset className="delete-files" disabled={busy || share.phase === 'done'}>
        <legend>Format</legend>
        {FORMATS.map((f) => (
          <label key={f.value} className="delete-file">
            <input
              type="radio"
              name="bundle-format"
              data-testid={`bundle-format-${f.value}`}
              checked={share.format === f.value}
              disabled={f.value !== 'zip' && count > 1}
              onChange={() => void setFormat(f.value)}
            />
            {f.label}
          </label>
        ))}
        <label className="delete-file">
          <input type="checkbox" data-testid="bundle-redact" checked={share.redact} onChange={(e) => setRedact(e.target.checked)} />
          Redact secrets (API keys, tokens, private keys, and your environment’s secret values) — recommended
        </label>
      </fieldset>
      {share.phase !== 'done' && <Findings />}
      <BundleRefusedFiles />
      {busy && (
        <p role="status" data-testid="bundle-progress">
          {share.phase === 'exporting' ? 'Exporting…' : 'Saving…'} <ProgressLine progress={share.progress} />
        </p>
      )}
      {share.phase === 'done' && share.result && (
        <div role="status" data-testid="bundle-done">
          <p className="ok-text">
            Saved {share.result.fileName} ({formatBytes(share.result.size)}): {plural(share.result.sessions, 'session')},{' '}
            {plural(share.result.redacted, 'secret')} redacted{share.result.kept ? `, ${share.result.kept} left as you chose` : ''}.
          </p>
          <p className="muted small">
            A copy is kept at <span className="mono">{share.result.path}</span> for a day.
          </p>
        </div>
      )}
      {share.error && (
        <p className="error-text" role="alert" data-testid="bundle-error">
          {share.error}
        </p>
      )}
      <div className="dialog-buttons">
        {share.phase === 'done' ? (
          <>
            <button type="button" onClick={() => void saveAgain()}>
              Save again
            </button>
            <button type="button" data-testid="bundle-close" onClick={() => void cancel()}>
              Close
            </button>
          </>
        ) : (
          <>
            <button type="button" data-testid="bundle-cancel" onClick={() => void cancel()}>
              {busy ? 'Cancel export' : 'Cancel'}
            </button>
            <button type="button" className="primary" data-testid="bundle-export" disabled={share.phase !== 'review'} onClick={() => void startExport()}>
              Export
            </button>
          </>
        )}
      </div>
    </ModalDialog>
  );
}
