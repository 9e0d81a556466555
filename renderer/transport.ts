// Picks the transport: the preload's IPC bridge inside Electron, HTTP + SSE in a plain browser.
import type { RendererTransport } from './client.ts';
import { createHttpTransport, resolveToken } from './transport-http.ts';
import { createIpcTransport } from './transport-ipc.ts';

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function pickTransport(): RendererTransport {
  if (window.sessionVault) return createIpcTransport(window.sessionVault);
  return createHttpTransport({ token: resolveToken(window.location.search, sessionStorageOrNull()) });
}
