// The page's only door to the app: invoke and subscribe over two IPC channels, nothing else from Electron.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { AppEvent, MethodName } from '../shared/api.ts';
import type { Result } from '../shared/result.ts';
import type { Transport } from '../shared/transport.ts';

const transport: Transport = {
  invoke: (method: MethodName, input: unknown): Promise<Result<unknown>> => ipcRenderer.invoke('api', method, input),
  subscribe(handler: (event: AppEvent) => void) {
    // The listener drops the IpcRendererEvent so its sender object never reaches page code.
    const listener = (_event: IpcRendererEvent, event: AppEvent) => handler(event);
    ipcRenderer.on('event', listener);
    return () => {
      ipcRenderer.removeListener('event', listener);
    };
  },
};

contextBridge.exposeInMainWorld('sessionVault', transport);
