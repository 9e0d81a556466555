// The IPC bridge with fake ipcMain/windows: who may call in, what they get back, who hears events.
import { describe, expect, it, vi } from 'vitest';
import type { AppEvent } from '../../shared/api.ts';
import type { Result } from '../../shared/result.ts';
import { createIpcBridge, isTrustedSender, originOf, type FrameLike, type InvokeEventLike, type IpcMainLike, type WindowLike } from './ipc.ts';

const APP_URL = 'app://bundle/index.html';

type Listener = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

function fakeIpcMain() {
  const handlers = new Map<string, Listener>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const invoke = (event: InvokeEventLike, ...args: unknown[]) => {
    const handler = handlers.get('api');
    if (!handler) throw new Error('no api handler');
    return handler(event, ...args) as Promise<Result<unknown>>;
  };
  return { ipcMain, handlers, invoke };
}

function fakeWindow(url = APP_URL) {
  const mainFrame: { url: string; parent: FrameLike | null } = { url, parent: null };
  const sent: Array<[string, unknown]> = [];
  const state = { destroyed: false };
  const webContents = {
    mainFrame,
    isDestroyed: () => state.destroyed,
    send: (channel: string, payload: unknown) => void sent.push([channel, payload]),
  };
  const win: WindowLike = { webContents, isDestroyed: () => state.destroyed };
  const fromMainFrame = (): InvokeEventLike => ({ sender: webContents, senderFrame: mainFrame });
  return { win, mainFrame, sent, state, fromMainFrame };
}

function fakeEvents() {
  const handlers = new Set<(event: AppEvent) => void>();
  return {
    subscribe: (handler: (event: AppEvent) => void) => {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
    emit: (event: AppEvent) => handlers.forEach((h) => h(event)),
    count: () => handlers.size,
  };
}

function setup(windows: WindowLike[]) {
  const ipc = fakeIpcMain();
  const events = fakeEvents();
  const dispatch = vi.fn(async (method: string, input: unknown): Promise<Result<unknown>> => ({
    ok: true,
    value: { method, input },
  }));
  const log = vi.fn();
  const bridge = createIpcBridge({
    ipcMain: ipc.ipcMain,
    dispatch,
    subscribe: events.subscribe,
    windows: () => windows,
    trustedOrigins: ['app://bundle'],
    log,
  });
  return { ...ipc, events, dispatch, log, bridge };
}

const changed: AppEvent = { name: 'sessionsChanged', payload: { changed: ['a'], removed: [] } };

describe('api channel', () => {
  it('dispatches a call from the main frame of an app window and returns its Result', async () => {
    const w = fakeWindow();
    const { invoke, dispatch } = setup([w.win]);
    const result = await invoke(w.fromMainFrame(), 'listSessions', { text: 'x' });
    expect(dispatch).toHaveBeenCalledWith('listSessions', { text: 'x' });
    expect(result).toEqual({ ok: true, value: { method: 'listSessions', input: { text: 'x' } } });
  });

  it('refuses a subframe of an app window without dispatching', async () => {
    const w = fakeWindow();
    const { invoke, dispatch, log } = setup([w.win]);
    const child: FrameLike = { url: APP_URL, parent: w.mainFrame };
    const result = await invoke({ sender: w.win.webContents, senderFrame: child }, 'listRoots', {});
    expect(result).toEqual({ ok: false, error: { code: 'INVALID_INPUT', message: 'Untrusted sender' } });
    expect(dispatch).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledOnce();
  });

  it('refuses a page from another origin, even in an app window', async () => {
    const w = fakeWindow('https://example.com/');
    const { invoke, dispatch } = setup([w.win]);
    const result = await invoke(w.fromMainFrame(), 'listRoots', {});
    expect(result.ok).toBe(false);
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('refuses file:// pages and look-alike hosts', async () => {
    for (const url of ['file:///tmp/index.html', 'app://bundle.evil/index.html', 'app://other/index.html']) {
      const w = fakeWindow(url);
      const { invoke, dispatch } = setup([w.win]);
      expect((await invoke(w.fromMainFrame(), 'listRoots', {})).ok).toBe(false);
      expect(dispatch).not.toHaveBeenCalled();
    }
  });

  it('refuses web contents the app did not create (e.g. a stray webview)', async () => {
    const ours = fakeWindow();
    const stranger = fakeWindow();
    const { invoke, dispatch } = setup([ours.win]);
    const result = await invoke(stranger.fromMainFrame(), 'listRoots', {});
    expect(result.ok).toBe(false);
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('refuses a call whose frame is already gone, or whose window was destroyed', async () => {
    const w = fakeWindow();
    const { invoke, dispatch } = setup([w.win]);
    expect((await invoke({ sender: w.win.webContents, senderFrame: null }, 'listRoots', {})).ok).toBe(false);
    w.state.destroyed = true;
    expect((await invoke(w.fromMainFrame(), 'listRoots', {})).ok).toBe(false);
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('answers a non-string method name with INVALID_INPUT instead of dispatching it', async () => {
    const w = fakeWindow();
    const { invoke, dispatch } = setup([w.win]);
    const result = await invoke(w.fromMainFrame(), { toString: () => 'listRoots' }, {});
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('turns a throwing dispatch into an INTERNAL Result rather than a rejected invoke', async () => {
    const w = fakeWindow();
    const { invoke, dispatch } = setup([w.win]);
    dispatch.mockRejectedValueOnce(new Error('boom'));
    const result = await invoke(w.fromMainFrame(), 'listRoots', {});
    expect(result).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'Internal error in listRoots: boom' } });
  });
});

describe('event channel', () => {
  it('pushes each service event to every live app window', () => {
    const a = fakeWindow();
    const b = fakeWindow();
    const { events } = setup([a.win, b.win]);
    events.emit(changed);
    expect(a.sent).toEqual([['event', changed]]);
    expect(b.sent).toEqual([['event', changed]]);
  });

  it('skips destroyed windows and windows showing a foreign page', () => {
    const live = fakeWindow();
    const dead = fakeWindow();
    const foreign = fakeWindow('https://example.com/');
    dead.state.destroyed = true;
    const { events } = setup([live.win, dead.win, foreign.win]);
    events.emit(changed);
    expect(live.sent).toHaveLength(1);
    expect(dead.sent).toEqual([]);
    expect(foreign.sent).toEqual([]);
  });

  it('stops pushing and frees the channel once disposed', async () => {
    const w = fakeWindow();
    const { events, bridge, handlers } = setup([w.win]);
    bridge.dispose();
    events.emit(changed);
    expect(w.sent).toEqual([]);
    expect(events.count()).toBe(0);
    expect(handlers.has('api')).toBe(false);
  });
});

describe('isTrustedSender / originOf', () => {
  it('accepts a dev-server origin only when it is listed', () => {
    const w = fakeWindow('http://localhost:5173/');
    expect(isTrustedSender(w.fromMainFrame(), [w.win], ['app://bundle'])).toBe(false);
    expect(isTrustedSender(w.fromMainFrame(), [w.win], ['app://bundle', 'http://localhost:5173'])).toBe(true);
  });

  it('reads the origin of custom-scheme URLs, which URL.origin reports as "null"', () => {
    expect(originOf('app://bundle/index.html#/s/1')).toBe('app://bundle');
    expect(originOf('about:blank')).toBeNull();
    expect(originOf('not a url')).toBeNull();
  });
});
