// Importing a bundle: drop a .zip anywhere on the window (or pick one), see it checked, then what came in and what was skipped; a dropped session file opens instead.
import { useEffect, useRef, useState } from 'react';
import { useAppStore } from '../../store/store-context.ts';
import { formatBytes, plural } from '../../format.ts';
import { BundleImportPreview } from './BundleImportPreview.tsx';
import { ModalDialog } from '../ModalDialog.tsx';

/** A drag that carries files (not text or a link dragged within the page). */
function carriesFiles(e: DragEvent): boolean {
  return [...(e.dataTransfer?.types ?? [])].includes('Files');
}

/** Listens on the whole window; shows a hint while a file is dragged over it. */
export function BundleDropZone() {
  const importFile = useAppStore((s) => s.importFile);
  const openFile = useAppStore((s) => s.openFile);
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overHandler = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      // Without this the browser would open the zip in place of the app.
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const file = e.dataTransfer?.files[0];
      // A bundle is imported; any other file is opened as a session file (its folder is not added).
      if (file) void (/\.zip$/i.test(file.name) ? importFile(file) : openFile(file));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overHandler);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overHandler);
      window.removeEventListener('drop', drop);
    };
  }, [importFile, openFile]);
  if (!over) return null;
  return (
    <div className="vault-backdrop" data-testid="bundle-drop-hint" style={{ pointerEvents: 'none' }}>
      <div className="vault-dialog">
        <h2>Drop a bundle to import it, or a session file to open it</h2>
        <p className="muted">A bundle is checked before anything is written; a session file opens without adding its folder.</p>
      </div>
    </div>
  );
}

/** "Import…" in the top bar: the same import, from a file picker. */
export function BundleImportButton() {
  const importFile = useAppStore((s) => s.importFile);
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        data-testid="bundle-import-button"
        title="Import a Session Vault bundle (.zip) — or drop it on the window"
        onClick={() => input.current?.click()}
      >
        Import…
      </button>
      <input
        ref={input}
        type="file"
        accept=".zip,application/zip"
        hidden
        data-testid="bundle-import-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void importFile(file);
        }}
      />
    </>
  );
}

export function BundleImportDialog() {
  const importing = useAppStore((s) => s.importing);
  const close = useAppStore((s) => s.closeImport);
  const asCopies = useAppStore((s) => s.importAsCopies);
  const confirm = useAppStore((s) => s.confirmImport);
  const openSession = useAppStore((s) => s.openSession);
  if (!importing) return null;
  const report = importing.report;
  const busy = importing.phase === 'uploading' || importing.phase === 'checking';
  return (
    <ModalDialog labelledBy="bundle-import-title" testId="bundle-import-dialog" onEscape={busy ? null : close}>
      <h2 id="bundle-import-title">Import {importing.fileName}</h2>
      {importing.phase === 'uploading' && (
        <p role="status">
          Reading… <progress max={importing.size} value={importing.sent} /> {formatBytes(importing.sent)} of {formatBytes(importing.size)}
        </p>
      )}
      {importing.phase === 'checking' && <p role="status">Checking every file (paths, sizes, checksums) before anything is written…</p>}
      {importing.phase === 'preview' && importing.preview && <BundleImportPreview preview={importing.preview} />}
      {report && (
        <div role="status" data-testid="bundle-import-report">
          <p className={report.imported.length ? 'ok-text' : 'muted'} data-testid="bundle-imported-count">
            {report.imported.length ? `Imported ${plural(report.imported.length, 'session')} into the vault.` : 'Nothing new was imported.'}
          </p>
          {report.imported.length > 0 && (
            <ul className="vault-list">
              {report.imported.map((s) => (
                <li key={s.key} className="trash-row" data-testid="bundle-imported" data-key={s.key}>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      close();
                      void openSession(s.key);
                    }}
                  >
                    {s.title}
                  </button>
                  <span className="muted mono small">{s.key}</span>
                  {s.copyOf && <span className="muted small">a copy of {s.copyOf}</span>}
                </li>
              ))}
            </ul>
          )}
          {report.skipped.length > 0 && (
            <>
              <p data-testid="bundle-skipped-count">Skipped {plural(report.skipped.length, 'session')} already here (nothing was overwritten):</p>
              <ul className="vault-list">
                {report.skipped.map((s) => (
                  <li key={s.key} className="trash-row" data-testid="bundle-skipped" data-key={s.key}>
                    <span className="trash-title">{s.title}</span>
                    <span className="muted mono small">{s.key}</span>
                    <span className="muted small" data-testid="bundle-skipped-reason">
                      {s.reason}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
          <p className="muted small">
            {report.redactionEnabled ? `The sender redacted ${plural(report.redacted, 'secret')} before sharing.` : 'The sender shared these files unredacted.'}
          </p>
        </div>
      )}
      {importing.error && (
        <p className="error-text" role="alert" data-testid="bundle-import-error">
          {importing.error}
        </p>
      )}
      {importing.phase === 'preview' && importing.preview && (
        <div className="dialog-buttons">
          {importing.preview.sessions.some((s) => s.conflict) && (
            <button type="button" data-testid="bundle-import-confirm-copies" onClick={() => void confirm(true)}>
              Import, keeping both as copies
            </button>
          )}
          <button type="button" data-testid="bundle-import-confirm" onClick={() => void confirm(false)}>
            Import
          </button>
          <button type="button" data-testid="bundle-import-cancel" onClick={close}>
            Cancel
          </button>
        </div>
      )}
      <div className="dialog-buttons" hidden={importing.phase === 'preview'}>
        {report && report.skipped.length > 0 && !importing.asCopy && (
          <button type="button" data-testid="bundle-import-copies" onClick={() => void asCopies()}>
            Import those as copies
          </button>
        )}
        <button type="button" data-testid="bundle-import-close" disabled={busy} onClick={close}>
          {busy ? 'Importing…' : 'Close'}
        </button>
      </div>
    </ModalDialog>
  );
}
