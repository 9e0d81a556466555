// The Electron entry wired end to end against a fake `electron` module: window, protocol, IPC, links, menu, quit.
import { waitFor } from '../test-support/wait-for.ts';
import type { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Result } from '../../shared/result.ts';
import { jidoSession } from '../test-support/session-files.ts';

type Listener = (event: unknown, ...args: unknown[]) => Promise<Result<unknown>>;
interface FakeContents extends EventEmitter {
  mainFrame: { url: string; parent: null };
  sent: Array<[string, { name: string }]>;
  openHandler?: (details: { url: string }) => { action: string };
}
interface FakeWindow {
  options: { webPreferences: Record<string, unknown> };
  webContents: FakeContents;
}
interface MenuItem {
  label?: string;
  role?: string;
  click?: () => void;
  submenu?: MenuItem[];
}

const fake = vi.hoisted(() => ({
  schemes: [] as unknown[],
  sandboxEnabled: false,
  userData: '',
  protocolHandler: null as null | ((request: Request) => Promise<Response>),
  ipc: {} as Record<string, Listener>,
  windows: [] as FakeWindow[],
  menu: [] as MenuItem[],
  opened: [] as string[],
  permissionRequest: null as null | ((c: unknown, p: string, cb: (ok: boolean) => void, d: { requestingUrl: string }) => void),
  picked: [] as string[],
  quitCompleted: 0,
  taskbar: [] as number[],
  errorBoxes: [] as string[],
  app: null as EventEmitter | null,
}));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class App extends Emitter {
    isPackaged = false;
    getPath = () => '/nonexistent/user-data';
    setPath = (_name: string, path: string) => void (fake.userData = path);
    enableSandbox = () => void (fake.sandboxEnabled = true);
    requestSingleInstanceLock = () => true;
    whenReady = () => Promise.resolve();
    getVersion = () => '0.0.0-test';
    exit = (code: number) => {
      throw new Error(`app.exit(${code})`);
    };
    quit = () => {
      const event = { prevented: false, preventDefault: () => void (event.prevented = true) };
      this.emit('will-quit', event);
      if (!event.prevented) fake.quitCompleted++;
    };
  }
  const app = new App();
  fake.app = app;
  class BrowserWindow extends Emitter {
    static getFocusedWindow = () => null;
    options: unknown;
    webContents: EventEmitter & { mainFrame: { url: string } };
    constructor(options: unknown) {
      super();
      this.options = options;
      const contents = Object.assign(new Emitter(), {
        mainFrame: { url: '', parent: null },
        sent: [] as unknown[],
        isDestroyed: () => false,
        send: (channel: string, payload: unknown) => void contents.sent.push([channel, payload]),
        setWindowOpenHandler: (h: unknown) => void Object.assign(contents, { openHandler: h }),
      });
      this.webContents = contents;
      fake.windows.push(this as unknown as FakeWindow);
      app.emit('web-contents-created', {}, contents);
    }
    isDestroyed = () => false;
    setProgressBar = (value: number) => void fake.taskbar.push(value);
    isVisible = () => false;
    isMinimized = () => false;
    show = () => undefined;
    focus = () => undefined;
    loadURL = async (url: string) => void (this.webContents.mainFrame.url = url);
  }
  const electron = {
    app,
    BrowserWindow,
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => void fake.schemes.push(...schemes),
      handle: (_scheme: string, handler: (r: Request) => Promise<Response>) => void (fake.protocolHandler = handler),
    },
    ipcMain: {
      handle: (channel: string, listener: Listener) => void (fake.ipc[channel] = listener),
      removeHandler: (channel: string) => void delete fake.ipc[channel],
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: typeof fake.permissionRequest) => void (fake.permissionRequest = h),
        setPermissionCheckHandler: () => undefined,
        setDevicePermissionHandler: () => undefined,
      },
    },
    Menu: { buildFromTemplate: (t: MenuItem[]) => t, setApplicationMenu: (m: MenuItem[]) => void (fake.menu = m) },
    dialog: {
      showOpenDialog: async () => ({ canceled: false, filePaths: fake.picked }),
      showErrorBox: (title: string, message: string) => void fake.errorBoxes.push(`${title}: ${message}`),
      showMessageBox: async () => ({ response: 0 }),
    },
    shell: { openExternal: async (url: string) => void fake.opened.push(url) },
  };
  return { ...electron, default: electron };
});

let base: string;
let win: FakeWindow;

const fromPage = (url = win.webContents.mainFrame.url) => ({ sender: win.webContents, senderFrame: { url, parent: null } });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-electron-main-'));
  const sessions = join(base, 'root', '.jido_code', 'sessions');
  await mkdir(sessions, { recursive: true });
  await writeFile(join(sessions, 'e-1.json'), jidoSession('e-1', 'desktop-demo'));
  vi.stubEnv('SESSION_VAULT_HOME', join(base, 'data'));
  vi.stubEnv('HOME', join(base, 'home'));
  await writeFile(join(base, 'from-argv.zip'), 'PK bytes');
  process.argv.push('--root', join(base, 'root'), join(base, 'from-argv.zip'));
  await import('./main.ts');
  win = await waitFor(() => fake.windows[0]);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  process.argv.splice(process.argv.indexOf('--root'), 3);
  await rm(base, { recursive: true, force: true });
});

describe('Electron entry', () => {
  it('registers app:// as a secure standard scheme and moves Chromium data under SESSION_VAULT_HOME', () => {
    expect(fake.schemes).toEqual([expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) })]);
    expect(fake.sandboxEnabled).toBe(true);
    expect(fake.userData).toBe(join(base, 'data', 'electron'));
  });

  it('opens one locked-down window on app://bundle/index.html', () => {
    expect(fake.windows).toHaveLength(1);
    expect(win.webContents.mainFrame.url).toBe('app://bundle/index.html');
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(String(win.options.webPreferences.preload)).toMatch(/preload[/\\]index\.cjs$/);
  });

  it('serves the UI through the protocol handler with the CSP', async () => {
    const res = await fake.protocolHandler!(new Request('app://bundle/'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('answers the page over IPC with sessions from --root, and refuses a foreign page', async () => {
    const total = await waitFor(async () => {
      const result = await fake.ipc.api!(fromPage(), 'listSessions', {});
      return result.ok && (result.value as { total: number }).total === 1 ? 1 : undefined;
    });
    expect(total).toBe(1);
    const refused = await fake.ipc.api!(fromPage('https://evil.example/'), 'listSessions', {});
    expect(refused).toEqual({ ok: false, error: { code: 'INVALID_INPUT', message: 'Untrusted sender' } });
  });

  it('shows indexing progress on the taskbar while a folder is read, and removes the bar when it is done', async () => {
    const more = join(base, 'more', '.jido_code', 'sessions');
    await mkdir(more, { recursive: true });
    for (let i = 0; i < 20; i++) await writeFile(join(more, `m-${i}.json`), jidoSession(`m-${i}`, `more ${i}`));
    fake.taskbar.length = 0;
    const added = await fake.ipc.api!(fromPage(), 'addRoot', { path: join(base, 'more') });
    expect(added.ok).toBe(true);
    await waitFor(() => (fake.taskbar.at(-1) === -1 ? true : undefined));
    expect(fake.taskbar.some((v) => (v >= 0 && v <= 1) || v === 2)).toBe(true);
  });

  it('hands bundles opened with the app (argv, open-file) to the window once each, and says why a missing one cannot be', async () => {
    const take = async () => {
      const result = await fake.ipc.api!(fromPage(), 'takeOpenedBundles', {});
      return result.ok ? (result.value as Array<{ fileName: string }>).map((b) => b.fileName) : [];
    };
    const taken: string[] = [];
    await waitFor(async () => (taken.push(...(await take())), taken.length ? true : undefined));
    expect(taken).toEqual(['from-argv.zip']);
    const announced = () => win.webContents.sent.filter(([, e]) => e.name === 'bundleOpened').length;
    const before = announced();
    await writeFile(join(base, 'double-clicked.zip'), 'PK more bytes');
    const event = { defaultPrevented: false, preventDefault: () => void (event.defaultPrevented = true) };
    fake.app!.emit('open-file', event, join(base, 'double-clicked.zip'));
    expect(event.defaultPrevented).toBe(true);
    await waitFor(() => (announced() > before ? true : undefined));
    expect(await take()).toEqual(['double-clicked.zip']);
    expect(await take()).toEqual([]);
    fake.app!.emit('open-file', { preventDefault: () => undefined }, join(base, 'gone.zip'));
    expect(await waitFor(() => fake.errorBoxes[0])).toBe(`Could not open the bundle: ${join(base, 'gone.zip')} does not exist.`);
  });

  it('pushes service events to the window', async () => {
    await waitFor(() => (win.webContents.sent.some(([, e]) => e.name === 'sessionsChanged') ? true : undefined));
    expect(win.webContents.sent.every(([channel]) => channel === 'event')).toBe(true);
  });

  it('blocks navigation and popups, sending only web links to the browser', () => {
    const navigation = { defaultPrevented: false, preventDefault: () => void (navigation.defaultPrevented = true) };
    win.webContents.emit('will-navigate', navigation, 'https://example.com/docs');
    expect(navigation.defaultPrevented).toBe(true);
    expect(win.webContents.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(fake.opened).toEqual(['https://example.com/docs']);
  });

  it('denies permissions except clipboard writes from the app itself', () => {
    const answers: boolean[] = [];
    const ask = (permission: string, requestingUrl: string) =>
      fake.permissionRequest!(win.webContents, permission, (ok) => answers.push(ok), { requestingUrl });
    ask('media', 'app://bundle/index.html');
    ask('clipboard-sanitized-write', 'app://bundle/index.html');
    ask('clipboard-sanitized-write', 'https://evil.example/');
    expect(answers).toEqual([false, true, false]);
  });

  it('adds a folder picked from File > Add Folder… through the service', async () => {
    const folder = join(base, 'picked');
    await mkdir(folder, { recursive: true });
    fake.picked = [folder];
    const file = fake.menu.find((m) => m.label === 'File')!;
    file.submenu!.find((i) => i.label === 'Add Folder…')!.click!();
    const roots = await waitFor(async () => {
      const result = await fake.ipc.api!(fromPage(), 'listRoots', {});
      const paths = result.ok ? (result.value as Array<{ path: string }>).map((r) => r.path) : [];
      return paths.some((p) => p.endsWith('picked')) ? paths : undefined;
    });
    expect(roots.some((p) => p.endsWith('picked'))).toBe(true);
  });

  it('opens a session file picked from File > Open File… without adding its folder, and hands it to the window', async () => {
    const folder = join(base, 'downloads');
    await mkdir(folder, { recursive: true });
    const file = join(folder, 'chat.json');
    await writeFile(file, jidoSession('j-picked', 'picked-project'));
    fake.picked = [file];
    const errorsBefore = fake.errorBoxes.length;
    fake.menu.find((m) => m.label === 'File')!.submenu!.find((i) => i.label === 'Open File…')!.click!();
    const opened = await waitFor(async () => {
      if (fake.errorBoxes.length > errorsBefore) throw new Error(fake.errorBoxes.slice(errorsBefore).join('\n'));
      const result = await fake.ipc.api!(fromPage(), 'takeOpenedSessions', {});
      if (!result.ok) throw new Error(result.error.message);
      const list = result.value as Array<{ key: string }>;
      return list.length ? list : undefined;
    });
    // A file outside its tool's folders is keyed by its path too (outside-layout.ts).
    expect(opened.map((o) => o.key)).toEqual([expect.stringMatching(/^jido-code:j-picked~[0-9a-f]{8}$/)]);
    const roots = await fake.ipc.api!(fromPage(), 'listRoots', {});
    expect(roots.ok && (roots.value as Array<{ path: string }>).some((r) => r.path === folder)).toBe(false);
  });

  it('stops the services before letting the app quit', async () => {
    const { app } = await import('electron');
    app.quit();
    await waitFor(() => (fake.quitCompleted === 1 ? true : undefined));
    expect(fake.ipc.api).toBeUndefined();
  });
});
