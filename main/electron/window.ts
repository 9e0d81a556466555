// The app's window and the rules every web contents lives by: sandboxed, isolated, no navigation, no popups.
import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import { externalLinkTarget } from './links.ts';

const windows = new Set<BrowserWindow>();

/** The windows this app created and that are still open; the IPC bridge trusts nothing else. */
export function appWindows(): BrowserWindow[] {
  return [...windows].filter((win) => !win.isDestroyed());
}

export interface MainWindowOptions {
  preloadPath: string;
  url: string;
  devTools: boolean;
}

export function createMainWindow({ preloadPath, url, devTools }: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: 'Session Vault',
    show: false,
    webPreferences: {
      // Reviewed (Electronegativity): the preload exposes only invoke/subscribe through contextBridge, and every call's sender is checked.
      preload: preloadPath, // eng-disable PRELOAD_JS_CHECK
      // A middle click would open a link in a new window without the page's confirmation; links open only through it.
      disableBlinkFeatures: 'Auxclick',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools,
    },
  });
  windows.add(win);
  win.on('closed', () => windows.delete(win));
  win.once('ready-to-show', () => win.show());
  // A page that fails to load would otherwise leave an invisible window behind.
  win.webContents.once('did-fail-load', () => {
    if (!win.isDestroyed() && !win.isVisible()) win.show();
  });
  void win.loadURL(url);
  return win;
}

function openOutside(url: string): void {
  const target = externalLinkTarget(url);
  // Reviewed (Electronegativity): only http(s) and mailto links without credentials get here, after the page asked the user.
  if (target) void shell.openExternal(target); // eng-disable OPEN_EXTERNAL_JS_CHECK
}

/** Applied to every web contents the app ever gets, including any a bug or a page might create. */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openOutside(url);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
}

/**
 * The page asks for nothing but clipboard writes (its Copy buttons); every other permission —
 * camera, notifications, geolocation, HID, ... — is refused without asking the user.
 */
export function denyPermissions(session: Session, isTrustedUrl: (url: string) => boolean): void {
  const allowed = (permission: string, url: string) => permission === 'clipboard-sanitized-write' && isTrustedUrl(url);
  session.setPermissionRequestHandler((_contents, permission, callback, details) => callback(allowed(permission, details.requestingUrl)));
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allowed(permission, requestingOrigin));
  session.setDevicePermissionHandler(() => false);
}
