// Unit tests live beside the code as *.test.ts(x); e2e/ belongs to Playwright.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'main/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'preload/**/*.test.ts', 'build/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    // Worker threads run the worker entry bundled to JavaScript, as in the app (see the file for why).
    globalSetup: ['build/test-workers.ts'],
  },
});
