// A path field + button to add a folder of sessions (a browser has no native folder dialog).
import { useState, type FormEvent } from 'react';
import { useAppStore } from '../store/store-context.ts';

/** `inputId` tells two forms on screen apart (the Sources panel's and the Settings page's). */
export function AddRootForm(props: { autoFocus?: boolean; onAdded?: () => void; inputId?: string }) {
  const [path, setPath] = useState('');
  const addRoot = useAppStore((s) => s.addRoot);
  const busy = useAppStore((s) => s.addRootBusy);
  const error = useAppStore((s) => s.addRootError);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await addRoot(path)) {
      setPath('');
      props.onAdded?.();
    }
  };

  return (
    <form className="add-root" onSubmit={(e) => void submit(e)}>
      <div className="add-root-line">
        <input
          id={props.inputId ?? 'add-root-input'}
          data-testid="add-root-input"
          type="text"
          value={path}
          placeholder="/path/to/a/folder/with/sessions"
          aria-label="Folder path"
          spellCheck={false}
          autoFocus={props.autoFocus}
          onChange={(e) => setPath(e.target.value)}
        />
        <button type="submit" data-testid="add-root-button" disabled={busy}>
          {busy ? 'Adding…' : 'Add folder'}
        </button>
      </div>
      {error && (
        <p className="error-text" role="alert" data-testid="add-root-error">
          {error}
        </p>
      )}
    </form>
  );
}
