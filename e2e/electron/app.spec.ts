// The desktop app itself: its window lists a session from a temp root, and the page holds only the bridge.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { findElectronBinary } from '../../main/electron/binary.ts';
import { jidoSession } from '../../main/test-support/session-files.ts';

const projectDir = resolve(import.meta.dirname, '..', '..');
const binary = findElectronBinary(pathToFileURL(join(projectDir, 'package.json')).href);
const skipReason = 'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD or no access to its download host): skipping the desktop e2e suite.';
// Workers load this file too; only the runner process (no TEST_WORKER_INDEX) says why, so it is said once.
if (!binary && process.env.TEST_WORKER_INDEX === undefined) console.log(skipReason);

test.describe('desktop app', () => {
  test.skip(!binary, skipReason);
  test.describe.configure({ mode: 'serial' });

  let base: string;
  let app: ElectronApplication;
  let page: Page;

  test.beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'sv-electron-e2e-'));
    const root = join(base, 'root');
    const sessions = join(root, '.jido_code', 'sessions');
    await mkdir(sessions, { recursive: true });
    await mkdir(join(base, 'home'), { recursive: true });
    await writeFile(join(sessions, 'e2e-1.json'), jidoSession('e2e-1', 'desktop-demo'));
    app = await electron.launch({
      executablePath: binary ?? undefined,
      args: [projectDir, '--root', root],
      cwd: projectDir,
      env: {
        ...process.env,
        SESSION_VAULT_HOME: join(base, 'data'),
        // An empty home: the tools' default folders of the machine running the tests stay out of the list.
        HOME: join(base, 'home'),
      },
    });
    page = await app.firstWindow();
  });

  test.afterAll(async () => {
    await app?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  test('shows the app from app://bundle/ and lists the session in the temp root', async () => {
    expect(page.url()).toMatch(/^app:\/\/bundle\//);
    const row = page.locator('[data-testid="session-row"][data-key="jido-code:e2e-1"]');
    await expect(row).toBeVisible();
    await expect(row).toContainText('desktop-demo');
  });

  test('exposes only invoke and subscribe to the page, and they reach the services', async () => {
    const bridge = await page.evaluate(() => {
      const api = (window as unknown as { sessionVault: Record<string, unknown> }).sessionVault;
      return { keys: Object.keys(api).sort(), types: Object.values(api).map((v) => typeof v) };
    });
    expect(bridge).toEqual({ keys: ['invoke', 'subscribe'], types: ['function', 'function'] });
    const total = await page.evaluate(async () => {
      const result = await window.sessionVault!.invoke('listSessions', {});
      return result.ok ? (result.value as { total: number }).total : result.error.message;
    });
    expect(total).toBe(1);
  });

  test('gives the page no Node: no require, no process, no module', async () => {
    const globals = await page.evaluate(() => {
      const g = globalThis as Record<string, unknown>;
      return [typeof g.require, typeof g.process, typeof g.module, typeof g.Buffer];
    });
    expect(globals).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
  });

  test('refuses to navigate away or open new windows', async () => {
    // file: URLs, because an http(s) one would be handed to the real system browser.
    const opened = await page.evaluate(() => window.open('file:///etc/hostname') === null);
    expect(opened).toBe(true);
    // Listen beside the app's own guard, to know when the main process was asked and what it answered.
    await app.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents;
      const asked = new Promise((resolve) => contents.once('will-navigate', (event) => resolve({ url: event.url, refused: event.defaultPrevented })));
      Object.assign(globalThis, { navigationAsked: asked });
    });
    await page.evaluate(() => {
      window.location.href = 'file:///etc/hostname';
    });
    expect(await app.evaluate(() => (globalThis as unknown as { navigationAsked: Promise<unknown> }).navigationAsked)).toEqual({
      url: 'file:///etc/hostname',
      refused: true,
    });
    expect(page.url()).toMatch(/^app:\/\/bundle\//);
    expect(app.windows()).toHaveLength(1);
  });
});
