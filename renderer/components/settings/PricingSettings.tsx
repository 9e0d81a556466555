// Settings: the user's pricing.json: where it is, whether it is used, the prices it sets over the bundled database, and adding, changing or removing them.
import { useEffect, useState } from 'react';
import { EMPTY_PRICE_FORM, formFor } from './pricing-form.ts';
import { useAppStore } from '../../store/store-context.ts';
import { PriceEntryForm } from './PriceEntryForm.tsx';
import { plural } from '../../format.ts';

const usd = (n: number) => `$${n.toLocaleString(undefined, { maximumFractionDigits: 4 })}`;

export function PricingSettings() {
  const file = useAppStore((s) => s.pricingFile);
  const error = useAppStore((s) => s.pricingError);
  const saveError = useAppStore((s) => s.pricingSaveError);
  const load = useAppStore((s) => s.loadPricingFile);
  const save = useAppStore((s) => s.savePricingEntry);
  /** The entry whose price is being changed, or null while the form adds one. */
  const [editing, setEditing] = useState<string | null>(null);
  /** Remounts the form empty after a save. */
  const [formRound, setFormRound] = useState(0);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => void load(), [load]);

  const locked = Boolean(file?.problem);
  const editedEntry = editing !== null ? file?.entries.find((e) => e.model === editing) : undefined;
  const done = (model: string | null, what: 'saved' | 'removed' = 'saved') => {
    setEditing(null);
    setFormRound((n) => n + 1);
    setSaved(
      model ? `${what === 'saved' ? 'Saved the price of' : 'Removed the price of'} ${model}; every session's cost is being worked out again with it.` : null,
    );
  };
  const remove = async (model: string) => {
    if (await save({ model, price: null })) done(model, 'removed');
  };

  return (
    <section className="settings-section" aria-labelledby="settings-prices" data-testid="settings-prices">
      <div className="settings-head">
        <h2 id="settings-prices">Prices</h2>
        <button type="button" data-testid="pricing-reload" onClick={() => void load()}>
          Read the file again
        </button>
      </div>
      <p className="muted settings-note">
        Costs are estimated from the bundled price database. Your own prices (USD per million tokens) win over it for the models they name, or for every model
        starting with a prefix written as <code>prefix*</code>. They are kept in <code>pricing.json</code> in the data folder: add, change or remove them here,
        and costs everywhere follow without a restart.
      </p>
      {file && (
        <>
          <p>
            <span className="muted">File: </span>
            <code className="settings-path" data-testid="pricing-path">
              {file.path}
            </code>{' '}
            <span className="muted" data-testid="pricing-state">
              {!file.exists ? '(not there: every price comes from the database)' : file.problem ? '(not used)' : `(${plural(file.entries.length, 'price')})`}
            </span>
          </p>
          {file.problem && (
            <p className="error-text" role="alert" data-testid="pricing-problem">
              {file.problem}
            </p>
          )}
          {file.entries.length > 0 && (
            <table className="grid settings-table" data-testid="pricing-entries">
              <caption className="sr-only">Prices from pricing.json, USD per million tokens</caption>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col" className="num">
                    Input
                  </th>
                  <th scope="col" className="num">
                    Output
                  </th>
                  <th scope="col" className="num">
                    Cache read
                  </th>
                  <th scope="col" className="num">
                    Cache write
                  </th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {file.entries.map((e) => (
                  <tr key={e.model} data-testid="pricing-entry" data-model={e.model}>
                    <th scope="row" className="mono">
                      {e.model}
                    </th>
                    <td className="num">{usd(e.input)}</td>
                    <td className="num">{usd(e.output)}</td>
                    <td className="num">{usd(e.cacheRead)}</td>
                    <td className="num">{usd(e.cacheWrite)}</td>
                    <td className="settings-actions">
                      <button
                        type="button"
                        className="small"
                        aria-label={`Change the price of ${e.model}`}
                        disabled={locked}
                        onClick={() => setEditing(e.model)}
                      >
                        Change
                      </button>
                      <button
                        type="button"
                        className="small"
                        aria-label={`Remove the price of ${e.model}`}
                        disabled={locked}
                        onClick={() => void remove(e.model)}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {locked && (
            <p className="muted settings-note" data-testid="pricing-locked">
              pricing.json is left as it is while it cannot be used: fix it in a text editor (or remove it), then read it again here to edit prices.
            </p>
          )}
          <PriceEntryForm
            key={`${editing ?? ''}:${formRound}`}
            editing={editedEntry ? editedEntry.model : null}
            initial={editedEntry ? formFor(editedEntry) : EMPTY_PRICE_FORM}
            locked={locked}
            onDone={(model) => done(model)}
          />
        </>
      )}
      {saved && !saveError && (
        <p className="muted" role="status" data-testid="pricing-saved">
          {saved}
        </p>
      )}
      {saveError && (
        <p className="error-text" role="alert" data-testid="pricing-save-error">
          {saveError}
        </p>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
