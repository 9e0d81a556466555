// Unit tests live beside the code as *.test.ts(x); e2e/ belongs to Playwright. Two projects: `unit` (quick) and `slow`.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Tests that spawn processes or measure heaps: the randomized crash test (seeded), the heap tests, the CLI run as a
 * user runs it, the packaging check, the team store's CLI, ccusage, Electronegativity. `npm test` (and CI) runs both
 * projects; `npx vitest --project unit` is the quick loop while editing.
 */
const SLOW = [
  'main/recorder/crash.test.ts',
  'main/recorder/lock.test.ts',
  'main/env/idle-memory.test.ts',
  'build/check-node.test.ts',
  ...[
    'bundle-commands',
    'cli',
    'diff-command',
    'export-outside',
    'open-and-loose',
    'record-command',
    'search-command',
    'terminal-output',
    'validate-command',
    'vault-commands',
    'lazy-modules',
  ].map((name) => `main/cli/${name}.test.ts`),
  'main/team/team-cli.test.ts',
  'main/transport/serve-team-tls.test.ts',
  'main/mcp/mcp-server.test.ts',
  'main/cli/summary-command.test.ts',
  'main/pricing/ccusage-agreement.test.ts',
  'main/pricing/usage-ccusage-agreement.test.ts',
  'main/pricing/usage-ccusage-breakdowns.test.ts',
  'main/pricing/usage-blocks-ccusage.test.ts',
  'main/cli/usage-fast-path.test.ts',
  'main/search-index/usage-zones.test.ts',
  'main/cli/fast-paths.test.ts',
  'build/packaging.test.ts',
  'build/electronegativity.test.ts',
  'build/lint-rooms.test.ts',
];

const ALL = ['shared/**/*.test.ts', 'main/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'preload/**/*.test.ts', 'build/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    pool: 'forks',
    // One test file per core. Vitest's default is one fewer, which on a 2-core machine ran every file in turn: the unit
    // tests took 575-898 s in clean-clone CI runs here; with two at a time, 401 s and 325 s (all 2,937-2,943 passing).
    maxWorkers: availableParallelism(),
    // Worker threads run the worker entry bundled to JavaScript, as in the app (see the file for why).
    globalSetup: ['build/test-workers.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ALL, exclude: SLOW } },
      { extends: true, test: { name: 'slow', include: SLOW } },
    ],
  },
});
