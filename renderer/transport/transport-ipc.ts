// Transport over the preload's window.sessionVault bridge (the desktop app).
import type { Result } from '../../shared/result.ts';
import type { Transport } from '../../shared/transport.ts';
import type { RendererTransport } from './client.ts';

export function createIpcTransport(bridge: Transport): RendererTransport {
  return {
    async invoke(method, input): Promise<Result<unknown>> {
      try {
        return await bridge.invoke(method, input);
      } catch (err) {
        // Electron rejects with a bare message when the channel itself fails; keep it as a Result.
        const message = err instanceof Error ? err.message : String(err);
        return { ok: false, error: { code: 'INTERNAL', message: `IPC call ${method} failed: ${message}` } };
      }
    },
    subscribe: (handler) => bridge.subscribe(handler),
    onConnectionChange(handler) {
      handler('online');
      return () => {};
    },
  };
}
