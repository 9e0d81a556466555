// Electron entry: one instance, the app:// protocol, the window and menu, and the services behind IPC.
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell } from 'electron';
import { resolveDataDir } from '../env/data-dir.ts';
import { sessionFilesFromArgv, bundlesFromArgv, rootsFromArgv } from './args.ts';
import { installMenu } from './menu.ts';
import { taskbarProgress } from './progress.ts';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, createBundleHandler } from './protocol.ts';
import { createIpcBridge, originOf } from './ipc.ts';
import { configureHeaps } from '../env/idle-memory.ts';
import { createServices } from '../app/services.ts';
import { appWindows, createMainWindow, denyPermissions, hardenWebContents } from './window.ts';

// Must happen before 'ready': a standard, secure scheme gets a real origin, so CSP 'self' and fetch work.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);
app.enableSandbox();

const dataDir = resolveDataDir(process.env, app.getPath('userData'));
// When SESSION_VAULT_HOME moves the data (tests, portable use), Chromium's profile and the
// single-instance lock move with it, so separate homes never collide.
if (dataDir !== app.getPath('userData')) app.setPath('userData', join(dataDir, 'electron'));

// Built, this file is out/main/index.js; run from source (tests), it is main/electron/main.ts and the renderer is the repo's.
const outDir = import.meta.filename.endsWith('.ts') ? join(import.meta.dirname, '..', '..') : join(import.meta.dirname, '..');
const rendererDir = join(outDir, 'renderer');
const preloadPath = join(outDir, 'preload', 'index.cjs');

/** electron-vite's dev server, honoured only for an unpackaged app and only on loopback. */
function devServerUrl(): string | null {
  const raw = process.env.ELECTRON_RENDERER_URL;
  if (app.isPackaged || !raw) return null;
  try {
    const url = new URL(raw);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    return loopback && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href : null;
  } catch {
    return null;
  }
}

function main(): void {
  const devUrl = devServerUrl();
  const devOrigin = devUrl ? originOf(devUrl) : null;
  const trustedOrigins = devOrigin ? [APP_ORIGIN, devOrigin] : [APP_ORIGIN];
  const isTrustedUrl = (url: string) => {
    const origin = originOf(url);
    return origin !== null && trustedOrigins.includes(origin);
  };

  // This process sizes V8's heaps before the services start their worker threads (idle-memory.ts).
  configureHeaps();
  const services = createServices({
    dataDir,
    shell: 'electron',
    extraRoots: rootsFromArgv(process.argv),
    // Deleted vault copies go to the OS trash on the desktop, where the user restores them as usual.
    host: { trashItem: (path) => shell.trashItem(path) },
  });
  let bridge: { dispose(): void } | null = null;
  let ready = false;

  const openWindow = () => createMainWindow({ preloadPath, url: devUrl ?? APP_ENTRY_URL, devTools: !app.isPackaged });

  const addFolder = async () => {
    const parent = BrowserWindow.getFocusedWindow() ?? appWindows()[0];
    const options = { title: 'Add Folder', properties: ['openDirectory' as const] };
    const picked = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
    const path = picked.filePaths[0];
    if (picked.canceled || !path) return;
    // Through dispatch, like the page's own calls, so the path is validated the same way.
    const result = await services.dispatch('addRoot', { path });
    if (!result.ok) dialog.showErrorBox('Could not add the folder', result.error.message);
  };

  const about = () => {
    const detail = [
      `Version ${app.getVersion()}`,
      `Electron ${process.versions.electron}, Chromium ${process.versions.chrome}, Node ${process.versions.node}`,
      `Data folder: ${dataDir}`,
    ].join('\n');
    void dialog.showMessageBox({ type: 'info', title: 'About Session Vault', message: 'Session Vault', detail });
  };

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));

  // Files opened with the app (double-click, open-with, the File menu): a bundle is imported with the window's usual
  // flow; a session file is shown without adding its folder.
  const openBundles = async (paths: string[]) => {
    for (const path of paths) {
      const bundle = /\.zip$/i.test(path);
      const problem = bundle ? await services.openBundleFile(path) : await services.openSessionFile(path);
      if (problem) dialog.showErrorBox(bundle ? 'Could not open the bundle' : 'Could not open the session file', problem);
    }
  };
  const openFile = async () => {
    const parent = BrowserWindow.getFocusedWindow() ?? appWindows()[0];
    const options = { title: 'Open File', properties: ['openFile' as const] };
    const picked = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
    const path = picked.filePaths[0];
    if (!picked.canceled && path) await openBundles([path]);
  };
  // macOS hands files over with open-file, before or after 'ready'; they wait until the services have started.
  const pendingOpen: string[] = [];
  app.on('open-file', (event, path) => {
    event.preventDefault();
    if (ready) void openBundles([path]);
    else pendingOpen.push(path);
  });

  app.on('second-instance', (_event, argv, workingDirectory) => {
    void openBundles([...bundlesFromArgv(argv, workingDirectory), ...sessionFilesFromArgv(argv, workingDirectory)]);
    const win = appWindows()[0];
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    } else if (ready) {
      openWindow();
    }
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (ready && appWindows().length === 0) openWindow();
  });

  // Quitting waits for the services to stop their watchers and workers, once.
  let stopping = false;
  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    if (stopping) return;
    stopping = true;
    bridge?.dispose();
    services
      .close()
      .catch((err: unknown) => console.error('Stopping the services failed:', err))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });

  app
    .whenReady()
    .then(async () => {
      protocol.handle(APP_SCHEME, createBundleHandler(rendererDir));
      denyPermissions(session.defaultSession, isTrustedUrl);
      bridge = createIpcBridge({
        ipcMain,
        dispatch: services.dispatch,
        subscribe: (handler) => services.subscribe(handler),
        windows: appWindows,
        trustedOrigins,
      });
      services.subscribe(taskbarProgress(appWindows));
      installMenu({ openFile: () => void openFile(), addFolder: () => void addFolder(), about, developerItems: !app.isPackaged });
      // The window opens while the services start: its first list page is read from the index meanwhile
      // (early-listing.ts) and every other call waits for the start.
      const started = services.start();
      ready = true;
      openWindow();
      await started;
      for (const problem of services.startupProblems()) console.warn(problem);
      await openBundles([...bundlesFromArgv(process.argv), ...sessionFilesFromArgv(process.argv), ...pendingOpen.splice(0)]);
    })
    .catch((err: unknown) => {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      console.error(message);
      dialog.showErrorBox('Session Vault could not start', message);
      app.exit(1);
    });
}

// A second launch hands over to the running instance (which focuses its window) and leaves.
if (app.requestSingleInstanceLock()) main();
else app.quit();
