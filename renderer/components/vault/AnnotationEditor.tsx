// The user's own words on a session: tags as chips (Enter adds, × removes) and a note saved on blur or Ctrl+Enter.
import { useState, type KeyboardEvent } from 'react';

const MAX_TAG = 80;

export function TagsEditor(props: { tags: readonly string[]; onChange(tags: string[]): void }) {
  const { tags, onChange } = props;
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const add = () => {
    const tag = draft.trim();
    if (!tag) return;
    if (tag.length > MAX_TAG) {
      setProblem(`A tag is at most ${MAX_TAG} characters.`);
      return;
    }
    setProblem(null);
    setDraft('');
    if (!tags.includes(tag)) onChange([...tags, tag]);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      add();
    } else if (e.key === 'Backspace' && draft === '' && tags.length > 0) {
      onChange(tags.slice(0, -1));
    }
  };

  return (
    <div className="tags-editor" data-testid="tags-editor">
      <span className="muted vault-label">Tags</span>
      {tags.map((t) => (
        <span key={t} className="tag-chip" data-testid="tag-chip">
          {t}
          <button
            type="button"
            className="tag-remove"
            aria-label={`Remove tag ${t}`}
            title={`Remove tag ${t}`}
            onClick={() => onChange(tags.filter((x) => x !== t))}
          >
            ×
          </button>
        </span>
      ))}
      <input
        type="text"
        className="tag-input"
        data-testid="tag-input"
        aria-label="Add a tag"
        placeholder={tags.length ? 'add tag' : 'add a tag, Enter'}
        spellCheck={false}
        maxLength={MAX_TAG + 1}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKey}
      />
      {problem && (
        <span className="error-text" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}

export type NoteState = 'saving' | 'unsaved' | 'saved' | 'idle';

export function noteState(draft: string, saved: string, saving: boolean, savedAt: number | null): NoteState {
  if (saving) return 'saving';
  if (draft !== saved) return 'unsaved';
  return savedAt !== null ? 'saved' : 'idle';
}

const NOTE_LABEL: Record<NoteState, string> = {
  saving: 'Saving…',
  unsaved: 'Unsaved — saved when you leave the box or press Ctrl+Enter',
  saved: 'Saved',
  idle: '',
};

export function NoteEditor(props: { note: string; saving: boolean; savedAt: number | null; onSave(note: string): void }) {
  const { note, saving, savedAt, onSave } = props;
  const [draft, setDraft] = useState(note);
  const [base, setBase] = useState(note);
  // The saved note changed (saved here, or elsewhere): the box follows it.
  if (note !== base) {
    setBase(note);
    setDraft(note);
  }
  const state = noteState(draft, note, saving, savedAt);
  const save = () => {
    if (draft !== note) onSave(draft);
  };

  return (
    <div className="note-editor">
      <label className="muted vault-label" htmlFor="session-note">
        Note
      </label>
      <textarea
        id="session-note"
        data-testid="note-input"
        rows={draft.includes('\n') || draft.length > 80 ? 4 : 2}
        placeholder="Your note on this session (saved in the vault)"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            save();
          }
        }}
      />
      <span className={`note-status note-${state}`} data-testid="note-status" role="status">
        {NOTE_LABEL[state]}
      </span>
    </div>
  );
}
