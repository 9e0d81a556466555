// Turns Codex's cumulative token_count counters into per-call deltas and a session total, surviving counter resets and leaving out the parent's usage a fork's copied history replays.
import type { TokenUsage } from '../../../shared/session.ts';
import { addUsage, emptyUsage, type Fields } from '../coerce.ts';

/** Codex's counters as written (OpenAI semantics: input includes cached input, output includes reasoning). */
export interface CodexTokens {
  input: number;
  cached: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
}

/** One bucket per token, so the pricing table never bills cached input or reasoning twice. */
export function toCanonicalUsage(t: CodexTokens): TokenUsage {
  return {
    input: Math.max(0, t.input - t.cached),
    output: Math.max(0, t.output - t.reasoning),
    cacheRead: t.cached,
    cacheWrite: t.cacheWrite,
    reasoning: t.reasoning,
  };
}

/** `{input_tokens, cached_input_tokens, output_tokens, reasoning_output_tokens, cache_write_input_tokens}`; null when none is a number. */
export function readCodexTokens(f: Fields | null): CodexTokens | null {
  if (!f) return null;
  const input = f.number('input_tokens');
  const cached = f.number('cached_input_tokens');
  const cacheWrite = f.number('cache_write_input_tokens');
  const output = f.number('output_tokens');
  const reasoning = f.number('reasoning_output_tokens');
  if (input === null && cached === null && output === null && reasoning === null && cacheWrite === null) return null;
  const n = (v: number | null) => Math.max(0, v ?? 0);
  return { input: n(input), cached: n(cached), cacheWrite: n(cacheWrite), output: n(output), reasoning: n(reasoning) };
}

function minus(a: CodexTokens, b: CodexTokens): CodexTokens {
  return {
    input: a.input - b.input,
    cached: Math.max(0, a.cached - b.cached),
    cacheWrite: Math.max(0, a.cacheWrite - b.cacheWrite),
    output: a.output - b.output,
    reasoning: Math.max(0, a.reasoning - b.reasoning),
  };
}

function isZero(u: TokenUsage): boolean {
  return u.input + u.output + u.cacheRead + u.cacheWrite + u.reasoning === 0;
}

/** Cumulative counters never shrink; a lower value means Codex started counting again (resume in a new process). */
function isReset(now: CodexTokens, before: CodexTokens): boolean {
  return now.input < before.input || now.output < before.output || now.cached < before.cached || now.reasoning < before.reasoning;
}

export class CumulativeUsage {
  #previous: CodexTokens | null = null;
  /** The counters a fork's copied history ended at (its parent's usage): never this session's own. */
  #baseline: CodexTokens | null = null;
  /** What the copied history had counted, for the session's facts. */
  inherited: TokenUsage | null = null;
  /** Everything counted before the last reset, plus usage reported only per call. */
  #settled = emptyUsage();
  #any = false;
  resets = 0;

  /** Feeds a `total_token_usage` replayed from the parent's history (a fork's copied prefix): the counters start there. */
  inherit(total: CodexTokens): void {
    this.#previous = total;
    this.#baseline = total;
    this.inherited = toCanonicalUsage(total);
  }

  /** The counters since the inherited start (all of them when nothing was inherited). */
  #own(total: CodexTokens): TokenUsage {
    return toCanonicalUsage(this.#baseline ? minus(total, this.#baseline) : total);
  }

  /** Feeds one `total_token_usage`; returns what this event added (null when it repeats the previous total). */
  pushTotal(total: CodexTokens): TokenUsage | null {
    const before = this.#previous;
    let added: CodexTokens = total;
    if (before && isReset(total, before)) {
      this.resets++;
      addUsage(this.#settled, this.#own(before));
      this.#baseline = null;
    } else if (before) {
      added = minus(total, before);
    }
    this.#previous = total;
    this.#any = true;
    const delta = toCanonicalUsage(added);
    return isZero(delta) ? null : delta;
  }

  /** Feeds a per-call `last_token_usage` when the event carries no cumulative total. */
  pushCall(call: CodexTokens): TokenUsage | null {
    const delta = toCanonicalUsage(call);
    if (isZero(delta)) return null;
    addUsage(this.#settled, delta);
    this.#any = true;
    return delta;
  }

  /** The session total: the last cumulative value plus every segment that ended in a reset. */
  total(): TokenUsage | null {
    if (!this.#any) return null;
    const sum = { ...this.#settled };
    if (this.#previous) addUsage(sum, this.#own(this.#previous));
    return sum;
  }
}
