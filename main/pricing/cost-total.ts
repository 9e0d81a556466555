// Adds up per-call costs into a session total that says how many calls with tokens had no price (a partial total).
import type { Cost, TokenUsage } from '../../shared/session.ts';

function hasTokens(usage: TokenUsage | null): boolean {
  return !!usage && usage.input + usage.output + usage.cacheRead + usage.cacheWrite + usage.reasoning > 0;
}

export class CostTotal {
  #usd = 0;
  #priced = 0;
  #unpriced = 0;
  #estimated = false;

  /**
   * One call: its cost (recorded or estimated), or null when unpriced; calls without tokens and cost count for nothing.
   * A cost that would take the sum past any number (a damaged 1e308) counts as unpriced.
   */
  add(cost: Cost | null, usage: TokenUsage | null): void {
    if (cost && !Number.isFinite(this.#usd + cost.usd)) {
      this.#unpriced++;
    } else if (cost) {
      this.#usd += cost.usd;
      this.#priced++;
      this.#estimated ||= cost.estimated;
      this.#unpriced += cost.unpricedMessages ?? 0;
    } else if (hasTokens(usage)) {
      this.#unpriced++;
    }
  }

  get unpriced(): number {
    return this.#unpriced;
  }

  /** null when nothing was priced; otherwise the sum, with `unpricedMessages` when it covers only some calls. */
  total(): Cost | null {
    if (this.#priced === 0) return null;
    const cost: Cost = { usd: this.#usd, estimated: this.#estimated };
    if (this.#unpriced > 0) cost.unpricedMessages = this.#unpriced;
    return cost;
  }
}
