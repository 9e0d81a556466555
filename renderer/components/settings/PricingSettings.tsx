// Settings: the user's pricing.json: where it is, whether it is used, and the prices it sets over the bundled database.
import { useEffect } from 'react';
import { useAppStore } from '../../store/store-context.ts';

const usd = (n: number) => `$${n.toLocaleString(undefined, { maximumFractionDigits: 4 })}`;

export function PricingSettings() {
  const file = useAppStore((s) => s.pricingFile);
  const error = useAppStore((s) => s.pricingError);
  const load = useAppStore((s) => s.loadPricingFile);
  useEffect(() => void load(), [load]);
  return (
    <section className="settings-section" aria-labelledby="settings-prices" data-testid="settings-prices">
      <div className="settings-head">
        <h2 id="settings-prices">Prices</h2>
        <button type="button" data-testid="pricing-reload" onClick={() => void load()}>
          Read the file again
        </button>
      </div>
      <p className="muted settings-note">
        Costs are estimated from the bundled price database. A <code>pricing.json</code> in the data folder sets your own prices (USD per million tokens) for
        the models it names, or every model starting with a prefix written as <code>prefix*</code>. Edit it in any text editor; it is read when the app starts,
        so restart to apply a change. This page shows what it holds now.
      </p>
      {file && (
        <>
          <p>
            <span className="muted">File: </span>
            <code className="settings-path" data-testid="pricing-path">
              {file.path}
            </code>{' '}
            <span className="muted" data-testid="pricing-state">
              {!file.exists
                ? '(not there: every price comes from the database)'
                : file.problem
                  ? '(not used)'
                  : `(${file.entries.length} price${file.entries.length === 1 ? '' : 's'})`}
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
                </tr>
              </thead>
              <tbody>
                {file.entries.map((e) => (
                  <tr key={e.model}>
                    <th scope="row" className="mono">
                      {e.model}
                    </th>
                    <td className="num">{usd(e.input)}</td>
                    <td className="num">{usd(e.output)}</td>
                    <td className="num">{usd(e.cacheRead)}</td>
                    <td className="num">{usd(e.cacheWrite)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
