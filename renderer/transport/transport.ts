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

/** The page's transport, or null in a browser that reached `serve` without the run's access token (nothing would answer). */
export function pickTransport(): RendererTransport | null {
  if (window.sessionVault) return createIpcTransport(window.sessionVault);
  const token = resolveToken(window.location.search, sessionStorageOrNull());
  return token ? createHttpTransport({ token }) : null;
}
