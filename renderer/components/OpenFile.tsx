// "Open file…": pick one session file (or drop it on the window) to see it without adding its folder; progress and the reason a file cannot be opened.
import { useRef } from 'react';
import { formatBytes } from '../format.ts';
import { useAppStore } from '../store/store-context.ts';
import { ModalDialog } from './ModalDialog.tsx';

export function OpenFileButton() {
  const openFile = useAppStore((s) => s.openFile);
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        data-testid="open-file-button"
        title="Open one session file without adding its folder — or drop it on the window"
        onClick={() => input.current?.click()}
      >
        Open file…
      </button>
      <input
        ref={input}
        type="file"
        hidden
        data-testid="open-file-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void openFile(file);
        }}
      />
    </>
  );
}

/** While a file uploads, and when it could not be opened: says so, in a dialog that Esc closes. */
export function OpeningFileDialog() {
  const opening = useAppStore((s) => s.openingFile);
  const dismiss = useAppStore((s) => s.dismissOpeningFile);
  if (!opening) return null;
  return (
    <ModalDialog labelledBy="opening-file-title" testId="opening-file-dialog" onEscape={opening.error ? dismiss : null}>
      <h2 id="opening-file-title">Open {opening.name}</h2>
      {opening.error ? (
        <>
          <p className="error-text" role="alert" data-testid="opening-file-error">
            {opening.error}
          </p>
          <div className="dialog-buttons">
            <button type="button" onClick={dismiss}>
              Close
            </button>
          </div>
        </>
      ) : (
        <p role="status">
          Reading… <progress max={opening.size} value={opening.sent} /> {formatBytes(opening.sent)} of {formatBytes(opening.size)}
        </p>
      )}
    </ModalDialog>
  );
}
