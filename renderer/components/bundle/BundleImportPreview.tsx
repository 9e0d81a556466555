// The import preview: which sessions a bundle would bring in, which the vault already has, what the sender redacted or left in.
import type { BundlePreview } from '../../../shared/bundle-api.ts';
import { formatBytes, plural } from '../../format.ts';

export function BundleImportPreview({ preview }: { preview: BundlePreview }) {
  const fresh = preview.sessions.filter((s) => !s.conflict).length;
  const conflicts = preview.sessions.length - fresh;
  return (
    <div data-testid="bundle-import-preview">
      <p role="status">
        Checked, nothing imported yet: {plural(preview.sessions.length, 'session')}, {plural(preview.files, 'file')} ({formatBytes(preview.bytes)}), exported{' '}
        {preview.createdAt} by Session Vault {preview.appVersion}.
      </p>
      <ul className="vault-list">
        {preview.sessions.map((s) => (
          <li key={s.key} className="trash-row" data-testid="bundle-preview-session" data-key={s.key} data-conflict={s.conflict}>
            <span className="trash-title">{s.title}</span>
            <span className="muted mono small">{s.key}</span>
            <span className="muted small">
              {s.format}, {plural(s.files, 'file')}, {formatBytes(s.bytes)}
            </span>
            {s.conflict && <span className="warn-text small">already in the vault: skipped unless imported as a copy</span>}
          </li>
        ))}
      </ul>
      {conflicts > 0 && (
        <p data-testid="bundle-preview-conflicts">
          {plural(conflicts, 'session')} already here (kept in the vault or listed from its own folder); nothing is ever overwritten.
        </p>
      )}
      <p className={preview.redactionEnabled ? 'muted small' : 'warn-text'} data-testid="bundle-preview-findings">
        {preview.redactionEnabled
          ? `The sender's export found ${plural(preview.findings, 'secret')} and redacted ${preview.redacted}.`
          : 'The sender shared these files unredacted: they may hold secrets.'}
      </p>
      {preview.keptFindings.length > 0 && (
        <>
          <p className="warn-text">The sender left {plural(preview.keptFindings.length, 'finding')} in place as false positives:</p>
          <ul className="vault-list">
            {preview.keptFindings.map((f) => (
              <li key={`${f.file}:${f.line}:${f.rule}`} className="mono small" data-testid="bundle-preview-kept">
                {f.rule} — {f.file}:{f.line}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
