// The contract's price editing (setPricingEntry): the file changed, this thread's prices with it, then every session priced again.
import type { ServiceMethods } from '../../shared/api.ts';
import { editPricingEntry } from './pricing-edit.ts';
import { applyUserPricing } from './user-pricing.ts';

export interface PricingMethodsDeps {
  pricingFile: string;
  /** Reads every session again with the new prices (the list's, the dashboard's and an open session's costs); runs after the call answers. */
  reprice(): Promise<void>;
  /** A reprice that failed, to report (the file is saved all the same). */
  onProblem(message: string): void;
}

export function pricingMethods(deps: PricingMethodsDeps): Pick<ServiceMethods, 'setPricingEntry'> {
  return {
    setPricingEntry: async (change) => {
      const info = await editPricingEntry(deps.pricingFile, change);
      applyUserPricing(deps.pricingFile);
      deps.reprice().catch((err: unknown) => deps.onProblem(`Costs were not worked out again with the new prices: ${(err as Error).message}`));
      return info;
    },
  };
}
