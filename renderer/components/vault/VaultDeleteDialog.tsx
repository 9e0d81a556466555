// Confirms a delete: the vault's copy goes to the trash; live source files are deleted only when ticked here, one by one.
import { useState } from 'react';
import type { SourceFile } from '../../../shared/session.ts';
import { formatBytes, plural } from '../../format.ts';
import { ModalDialog } from '../ModalDialog.tsx';

export interface DeleteTarget {
  title: string;
  /** The vault holds a copy (or the session is the vault's own, like a fork): that goes to the trash. */
  inVault: boolean;
  /** The tool's own files, offered only while they exist outside the vault. */
  sourceFiles: readonly SourceFile[];
}

export function VaultDeleteDialog(props: { target: DeleteTarget; busy: boolean; error: string | null; onConfirm(files: string[]): void; onCancel(): void }) {
  const { target, busy, error, onConfirm, onCancel } = props;
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const files = target.sourceFiles;
  const chosen = files.map((f) => f.path).filter((p) => ticked.has(p));
  const canConfirm = !busy && (target.inVault || chosen.length > 0);
  const toggle = (path: string) => {
    const next = new Set(ticked);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    setTicked(next);
  };

  return (
    <ModalDialog labelledBy="delete-title" testId="delete-dialog" onEscape={onCancel}>
      <h2 id="delete-title">Delete “{target.title}”?</h2>
      {target.inVault ? (
        <p>The vault’s copy moves to the trash; you can restore it from the Vault panel.</p>
      ) : (
        <p>This session is not kept in the vault. Only the source files you tick below are deleted; nothing else is touched.</p>
      )}
      {files.length > 0 && (
        <fieldset className="delete-files">
          <legend>{target.inVault ? 'Also delete these source files of the tool (optional):' : 'Source files to delete:'}</legend>
          {files.map((f) => (
            <label key={f.path} className="delete-file">
              <input type="checkbox" data-testid="delete-source-file" checked={ticked.has(f.path)} onChange={() => toggle(f.path)} />
              <span className="mono">{f.path}</span>
              <span className="muted">
                {f.role} · {formatBytes(f.size)}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {!target.inVault && files.length === 0 && <p className="muted">This session lists no source files to delete.</p>}
      {error && (
        <p className="error-text" role="alert" data-testid="delete-error">
          Could not delete: {error}
        </p>
      )}
      <div className="dialog-buttons">
        {/* Cancel is the safe default for Enter. */}
        <button type="button" autoFocus onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="danger" data-testid="delete-confirm" disabled={!canConfirm} onClick={() => onConfirm(chosen)}>
          {busy ? 'Deleting…' : deleteLabel(target.inVault, chosen.length)}
        </button>
      </div>
    </ModalDialog>
  );
}

export function deleteLabel(inVault: boolean, files: number): string {
  const parts = [inVault ? 'Move to trash' : '', files ? `delete ${plural(files, 'source file')}` : ''].filter(Boolean);
  if (parts.length === 0) return 'Delete ticked files';
  const text = parts.join(' and ');
  return text[0]!.toUpperCase() + text.slice(1);
}
