// The Summary card's form: overview, decisions, outcomes, open items (one a line) and tags; Ctrl/Cmd+Enter saves, Esc cancels.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { SummaryRecord } from '../../../shared/summary-api.ts';
import type { SummaryDraft } from '../../store/store-summary.ts';
import { draftOf, formOf, type SummaryForm } from './summary-draft.ts';

interface Props {
  summary: SummaryRecord | null;
  saving: boolean;
  /** The service's refusal, if the last save was refused. */
  error: string | null;
  onSave(draft: SummaryDraft): void;
  onCancel(): void;
}

const LISTS: Array<{ field: Exclude<keyof SummaryForm, 'overview' | 'tags'>; label: string }> = [
  { field: 'decisions', label: 'Key decisions' },
  { field: 'outcomes', label: 'Outcomes' },
  { field: 'openItems', label: 'Open items' },
];

export function SummaryEditor({ summary, saving, error, onSave, onCancel }: Props) {
  const [form, setForm] = useState<SummaryForm>(() => formOf(summary));
  const [problem, setProblem] = useState<string | null>(null);
  const overview = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useEffect(() => overview.current?.focus(), []);

  const save = () => {
    const result = draftOf(form);
    if ('problem' in result) {
      setProblem(result.problem);
      overview.current?.focus();
      return;
    }
    setProblem(null);
    onSave(result.draft);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      save();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };
  const field = (name: keyof SummaryForm) => ({
    id: `${id}-${name}`,
    value: form[name],
    disabled: saving,
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }),
  });

  return (
    <form
      className="summary-form"
      data-testid="summary-form"
      aria-label="Edit the summary"
      onKeyDown={onKey}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label htmlFor={`${id}-overview`}>Overview</label>
      <textarea
        ref={overview}
        rows={3}
        placeholder="Two or three sentences: what the session did and where it ended"
        aria-required="true"
        {...field('overview')}
        data-testid="summary-overview-input"
      />
      {LISTS.map(({ field: name, label }) => (
        <div key={name} className="summary-form-row">
          <label htmlFor={`${id}-${name}`}>{label}</label>
          <textarea rows={2} placeholder="One a line" {...field(name)} data-testid={`summary-${name}-input`} />
        </div>
      ))}
      <label htmlFor={`${id}-tags`}>Tags</label>
      <input type="text" placeholder="Separated by commas" spellCheck={false} {...field('tags')} data-testid="summary-tags-input" />
      {(problem ?? error) && (
        <p className="error-text" role="alert" data-testid="summary-error">
          {problem ?? error}
        </p>
      )}
      <div className="summary-form-buttons">
        <button type="submit" className="primary" disabled={saving} data-testid="summary-save">
          {saving ? 'Saving…' : 'Save summary'}
        </button>
        <button type="button" onClick={onCancel} disabled={saving}>
          Cancel
        </button>
        <span className="muted small">Ctrl+Enter saves, Esc cancels</span>
      </div>
    </form>
  );
}
