// How the usage reports write a cost: exact, or a lower bound that says how many calls it leaves out.
import type { UsageFigures } from '../../shared/usage-api.ts';

export function costText(f: Pick<UsageFigures, 'costUsd' | 'unpricedCalls'>): string {
  const usd = `$${f.costUsd.toFixed(f.costUsd !== 0 && Math.abs(f.costUsd) < 1 ? 4 : 2)}`;
  return f.unpricedCalls ? `≥ ${usd}, ${Math.round(f.unpricedCalls).toLocaleString('en-US')} unpriced` : usd;
}
