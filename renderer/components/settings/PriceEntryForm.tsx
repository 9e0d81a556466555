// Settings: the form that adds a price to pricing.json or changes one, each box checked before anything is sent.
import { useId, useState } from 'react';
import { checkPriceForm, PRICE_FIELD_LABELS, PRICE_FIELDS, type PriceForm, type PriceFormErrors } from './pricing-form.ts';
import { useAppStore } from '../../store/store-context.ts';

export function PriceEntryForm(props: {
  /** The entry being changed (its name as the file has it), or null to add one. */
  editing: string | null;
  initial: PriceForm;
  /** pricing.json cannot be used as it is: nothing is saved until it is fixed or removed. */
  locked: boolean;
  onDone(savedModel: string | null): void;
}) {
  const { editing, initial, locked, onDone } = props;
  const save = useAppStore((s) => s.savePricingEntry);
  const [form, setForm] = useState<PriceForm>(initial);
  const [errors, setErrors] = useState<PriceFormErrors>({});
  const [saving, setSaving] = useState(false);
  const id = useId();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const checked = checkPriceForm(form, editing);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    const ok = await save(checked.change);
    setSaving(false);
    if (ok) onDone(checked.change.model);
  };

  const box = (field: 'model' | (typeof PRICE_FIELDS)[number], label: string, extra: { mono?: boolean; decimal?: boolean }) => {
    const error = errors[field];
    return (
      <label className="price-box" key={field}>
        <span>{label}</span>
        <input
          type="text"
          className={extra.mono ? 'mono' : undefined}
          inputMode={extra.decimal ? 'decimal' : undefined}
          data-testid={`pricing-${field}`}
          value={form[field]}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-${field}` : undefined}
          onChange={(e) => setForm({ ...form, [field]: e.target.value })}
        />
        {error && (
          <span className="error-text" id={`${id}-${field}`} data-testid={`pricing-${field}-error`}>
            {error}
          </span>
        )}
      </label>
    );
  };

  return (
    <form className="price-form" data-testid="pricing-form" onSubmit={(e) => void submit(e)} noValidate>
      <fieldset disabled={locked || saving}>
        <legend>{editing ? `Change the price of ${editing}` : 'Add a price'}</legend>
        <div className="price-boxes">
          {box('model', 'Model, or prefix*', { mono: true })}
          {PRICE_FIELDS.map((f) => box(f, `${PRICE_FIELD_LABELS[f]} ($ per M)`, { decimal: true }))}
        </div>
        <div className="price-form-actions">
          <button type="submit" data-testid="pricing-save">
            {saving ? 'Saving…' : editing ? 'Save the change' : 'Add the price'}
          </button>
          {editing && (
            <button type="button" onClick={() => onDone(null)}>
              Cancel
            </button>
          )}
        </div>
      </fieldset>
    </form>
  );
}
