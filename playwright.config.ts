// End-to-end suites: the browser version against `serve` in headless Chromium, and the desktop app where Electron exists.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  workers: 2,
  retries: 0,
  reporter: 'list',
  // A CI machine ran the suite ~1.4x slower than this one: assertions wait 10 s (Playwright's 5 s default was met
  // here with little to spare while two workers and the servers shared 2 cores).
  expect: { timeout: 10_000 },
  outputDir: 'test-results',
  projects: [
    {
      name: 'web',
      testDir: 'e2e/web',
      use: {
        browserName: 'chromium',
        headless: true,
        launchOptions: {
          // The system Chromium: nothing is downloaded; PLAYWRIGHT_CHROMIUM points elsewhere when needed.
          executablePath: process.env.PLAYWRIGHT_CHROMIUM || '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        },
      },
    },
    {
      name: 'electron',
      testDir: 'e2e/electron',
    },
  ],
});
