// Electron IPC adapter: one 'api' channel into dispatch (trusted frames only) and one 'event' channel out.
import type { AppEvent } from '../../shared/api.ts';
import type { Result } from '../../shared/result.ts';
import type { Dispatch } from '../transport/dispatch.ts';

export const API_CHANNEL = 'api';
export const EVENT_CHANNEL = 'event';

/** The parts of Electron's objects the bridge reads, so tests can hand it plain fakes. */
export interface FrameLike {
  readonly url: string;
  readonly parent: FrameLike | null;
}
export interface WebContentsLike {
  readonly mainFrame: FrameLike;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}
export interface WindowLike {
  readonly webContents: WebContentsLike;
  isDestroyed(): boolean;
}
export interface InvokeEventLike {
  readonly sender: WebContentsLike;
  /** null once the frame has navigated away or been destroyed. */
  readonly senderFrame: FrameLike | null;
}
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface IpcBridgeOptions {
  ipcMain: IpcMainLike;
  dispatch: Dispatch;
  subscribe: (handler: (event: AppEvent) => void) => () => void;
  /** The windows this app created; nothing else may call in or hear events. */
  windows: () => Iterable<WindowLike>;
  /** Origins ("app://bundle", or the dev server's in development) a trusted page is served from. */
  trustedOrigins: readonly string[];
  log?: (message: string) => void;
}

const untrusted: Result<never> = { ok: false, error: { code: 'INVALID_INPUT', message: 'Untrusted sender' } };

/** protocol://host of a URL; Node's URL.origin is "null" for custom schemes, so build it by hand. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : null;
  } catch {
    return null;
  }
}

function isLive(win: WindowLike): boolean {
  return !win.isDestroyed() && !win.webContents.isDestroyed();
}

function isAppWindow(contents: WebContentsLike, windows: Iterable<WindowLike>): boolean {
  for (const win of windows) if (isLive(win) && win.webContents === contents) return true;
  return false;
}

/** A call is trusted only from the top frame of one of our windows, showing our own origin. */
export function isTrustedSender(event: InvokeEventLike, windows: Iterable<WindowLike>, trustedOrigins: readonly string[]): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  if (!isAppWindow(event.sender, windows)) return false;
  const origin = originOf(frame.url);
  return origin !== null && trustedOrigins.includes(origin);
}

export function createIpcBridge(opts: IpcBridgeOptions): { dispose(): void } {
  const log = opts.log ?? ((message: string) => console.warn(message));

  opts.ipcMain.handle(API_CHANNEL, async (event, method, input): Promise<Result<unknown>> => {
    if (!isTrustedSender(event, opts.windows(), opts.trustedOrigins)) {
      log(`Refused IPC call ${String(method)} from ${event.senderFrame?.url ?? 'a destroyed frame'}`);
      return untrusted;
    }
    if (typeof method !== 'string') {
      return { ok: false, error: { code: 'INVALID_INPUT', message: 'The method name must be a string.' } };
    }
    try {
      return await opts.dispatch(method, input);
    } catch (err) {
      // dispatch wraps service errors itself; this guards the envelope against a bug in it.
      const message = err instanceof Error ? err.message : String(err);
      return { ok: false, error: { code: 'INTERNAL', message: `Internal error in ${method}: ${message}` } };
    }
  });

  const unsubscribe = opts.subscribe((event) => {
    for (const win of opts.windows()) {
      if (!isLive(win)) continue;
      const origin = originOf(win.webContents.mainFrame.url);
      if (origin === null || !opts.trustedOrigins.includes(origin)) continue;
      win.webContents.send(EVENT_CHANNEL, event);
    }
  });

  return {
    dispose() {
      unsubscribe();
      opts.ipcMain.removeHandler(API_CHANNEL);
    },
  };
}
