// The contract fuzz's property, shared by its three tests (the app, the app signed in to a team store, serve --team): one method called with inputs made from its schema must answer as its contract allows, or with an error other than an internal one.
import fc from 'fast-check';
import { api, type MethodName } from '../../shared/api.ts';
import type { Result } from '../../shared/result.ts';
import { arbitraryFor, type Pools } from '../../shared/test-support/schema-arbitrary.ts';

export interface ContractRun {
  /** How the method is called: a services' or a transport's dispatch. */
  dispatch(method: MethodName, input: unknown): Promise<Result<unknown>>;
  pools: Pools;
  /** Runs a method when SV_CONTRACT_RUNS is not set (then from seed 2026; with it, from a new seed). */
  runs: number;
  /** Each fault as one line, prefixed with `label`. */
  failures: string[];
  label?: string;
  /** Per method, how many calls answered with a value. */
  answered?: Map<MethodName, number>;
}

export async function checkMethod(method: MethodName, run: ContractRun): Promise<void> {
  const prefix = run.label ? `${run.label} ` : '';
  await fc.assert(
    fc.asyncProperty(arbitraryFor(api[method].input, run.pools), async (value) => {
      const result = await run.dispatch(method, value);
      const shown = JSON.stringify(value)?.slice(0, 200);
      if (!result.ok && result.error.code === 'INTERNAL') run.failures.push(`${prefix}${method}(${shown}): ${result.error.message.slice(0, 300)}`);
      if (result.ok) {
        run.answered?.set(method, (run.answered.get(method) ?? 0) + 1);
        const checked = api[method].output.safeParse(result.value);
        if (!checked.success) run.failures.push(`${prefix}${method}(${shown}) answered outside its contract: ${checked.error.message.slice(0, 300)}`);
      }
    }),
    { numRuns: Number(process.env.SV_CONTRACT_RUNS ?? run.runs), ...(process.env.SV_CONTRACT_RUNS ? {} : { seed: 2026 }) },
  );
}
