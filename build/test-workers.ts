// Vitest global setup: bundles the worker entry to JavaScript once per run, so the worker threads tests start do not each load TypeScript.
import { build } from 'rolldown';
import { rm } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/**
 * Without this, every worker thread a test starts (read pools, the index writer, an export's workers) loads
 * read-worker.ts through Node's type stripping, which compiles its WebAssembly stripper anew in each thread
 * (~100 ms a start). That churn of WebAssembly code across threads is what V8's JIT-page registry races on
 * (`Check failed: jit_page.has_value()`), which killed a test process now and then. The app itself starts
 * the built read-worker.js; the tests now start the same entry, bundled here from the sources of this run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const root = join(import.meta.dirname, '..');
  const dir = join(root, 'node_modules', '.cache', 'session-vault-test-workers', String(process.pid));
  await build({
    input: join(root, 'main', 'workers', 'read-worker.ts'),
    platform: 'node',
    // Packages stay imports, resolved from the project's node_modules as the app's bundle does.
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    output: { dir, format: 'esm', entryFileNames: 'read-worker.js', chunkFileNames: '[name]-[hash].js' },
    logLevel: 'warn',
  });
  process.env.SESSION_VAULT_WORKER_FILE = join(dir, 'read-worker.js');
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
