// Where the bench finds the app's build: out/ (what `npm run bench` builds), or SESSION_VAULT_BENCH_OUT, a copy that
// other builds in a shared checkout do not replace halfway through a run.
import { join, resolve } from 'node:path';

export const builtDir = (): string => process.env.SESSION_VAULT_BENCH_OUT ?? resolve(import.meta.dirname, '..', '..', 'out');

/** A file of the build (`main/cli.js`). */
export const builtFile = (relative: string): string => join(builtDir(), relative);
