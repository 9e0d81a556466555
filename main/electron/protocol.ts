// The app:// protocol's request handler: files from the built renderer folder only, under the same CSP as the web version.
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY, securityHeaders } from '../transport/http/security-headers.ts';

export const APP_SCHEME = 'app';
export const APP_HOST = 'bundle';
/** What originOf() in ipc.ts yields for pages we serve; the only origin allowed to call the API. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export { CONTENT_SECURITY_POLICY };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/**
 * Maps an app://bundle/ URL to a file inside rendererDir, or null when the URL is not ours or would
 * leave the folder. Paths without an extension fall back to index.html so a reload keeps the page.
 */
export function resolveBundlePath(rendererDir: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  // Encoded separators and dot segments survive URL normalisation; refuse them rather than interpret them.
  if (path.includes('\0') || path.includes('\\') || path.split('/').some((part) => part === '..' || part === '.')) {
    return null;
  }
  const relative = path.replace(/^\/+/, '');
  const target = relative === '' || extname(relative) === '' ? 'index.html' : relative;
  const root = resolve(rendererDir);
  const full = resolve(root, target);
  return full.startsWith(root + sep) ? full : null;
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', ...securityHeaders },
  });
}

/** A handler for protocol.handle(APP_SCHEME, ...): standard Request in, Response out. */
export function createBundleHandler(rendererDir: string, read: (path: string) => Promise<Uint8Array> = readFile): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
    const file = resolveBundlePath(rendererDir, request.url);
    if (file === null) return plain(404, 'Not found');
    let body: Uint8Array;
    try {
      body = await read(file);
    } catch {
      return plain(404, 'Not found');
    }
    const headers = {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
      ...securityHeaders,
    };
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
}
