// The HTTP transport: POST /api/:method, GET /events (SSE) and GET /download/bundle over one dispatch, loopback only (or over TLS for `serve --team --host`), token required.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { timingSafeEqual } from 'node:crypto';
import type { AppEvent } from '../../shared/api.ts';
import { EVENTS_SENT_HEADER, STREAM_HELLO_EVENT } from '../../shared/event-count.ts';
import type { ErrorCode } from '../../shared/result.ts';
import type { Dispatch } from './dispatch.ts';
import { sendBundleDownload } from './http/bundle-download.ts';
import { sendError, sendJson } from './http/json-response.ts';
import { securityHeaders } from './http/security-headers.ts';
import { serveStatic } from './http/static-files.ts';
import { closeAfter, DEFAULT_HTTP_LIMITS, serverOptions, type HttpLimits } from './http/limits.ts';
import { BodyRefused, readBody } from './http/read-body.ts';

export interface HttpTransportOptions {
  dispatch: Dispatch;
  subscribe: (handler: (event: AppEvent) => void) => () => void;
  token: string;
  /** Folder holding the built renderer (index.html + assets). */
  rendererDir: string;
  /** Port the server is reachable on, for the Host check; set once listening. */
  port: () => number;
  heartbeatMs?: number;
  /** Timeouts, the body size and the connection cap (DEFAULT_HTTP_LIMITS; tests make them small). */
  limits?: Partial<HttpLimits>;
  /** Serve HTTPS with this certificate and key (`serve --team --host`); plain HTTP without. */
  tls?: { cert: Buffer; key: Buffer };
  /** Host names (or addresses) accepted in the Host header besides 127.0.0.1 and localhost: the address served on, the certificate's names. */
  hosts?: string[];
}

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  UNKNOWN_METHOD: 404,
  NOT_FOUND: 404,
  OUTSIDE_ROOTS: 403,
  UNREADABLE: 422,
  IO_ERROR: 500,
  CONFLICT: 409,
  // The caller asked for it: nothing failed, nothing was written (409, as the request's outcome is "not done").
  CANCELLED: 409,
  INTERNAL: 500,
};

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The method name from `/api/<name>`, or null when its percent-encoding is broken (`%E0%A4%A`). */
function methodName(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname.slice('/api/'.length));
  } catch {
    return null;
  }
}

export function createHttpTransport(options: HttpTransportOptions): Server {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };

  /**
   * Events sent so far, counted by a listener subscribed before any stream's: an answer tells the page how many had
   * gone out before its call was dispatched, and a stream how many before it opened (shared/event-count.ts).
   */
  let eventsSent = 0;
  const stopCounting = options.subscribe(() => {
    eventsSent++;
  });

  const scheme = options.tls ? 'https' : 'http';
  const names = new Set(['127.0.0.1', 'localhost', ...(options.hosts ?? []).map((h) => h.toLowerCase())]);
  /**
   * DNS-rebinding defence: only the names we listen on are accepted (loopback's, and those given for a served
   * address), with our port (or none, on the scheme's default port).
   */
  const hostAllowed = (host: string | undefined): boolean => {
    const port = options.port();
    const m = host === undefined ? null : /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
    if (!m?.[1]) return false;
    const name = m[1].replace(/^\[|\]$/g, '').toLowerCase();
    const given = m[2] === undefined ? (options.tls ? 443 : 80) : Number(m[2]);
    return names.has(name) && given === port;
  };

  /** 401 when no token was sent, 403 when a wrong one was. */
  const tokenStatus = (req: IncomingMessage, url: URL): 200 | 401 | 403 => {
    const header = req.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7) : url.searchParams.get('token');
    if (!given) return 401;
    return sameToken(given, options.token) ? 200 : 403;
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, method: string) => {
    // Refused before the body is read: the answer goes out and the connection closes (closeAfter).
    if (req.method !== 'POST') {
      closeAfter(req, res)
        .writeHead(405, { Allow: 'POST', ...securityHeaders })
        .end();
      return;
    }
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('application/json')) {
      sendError(closeAfter(req, res), 415, 'INVALID_INPUT', 'Content-Type must be application/json.');
      return;
    }
    let text: string;
    try {
      text = await readBody(req, limits);
    } catch (err) {
      if (err instanceof BodyRefused) sendError(closeAfter(req, res), err.status, 'INVALID_INPUT', err.message);
      else req.socket.destroy(); // the client went away mid-body: nobody to answer
      return;
    }
    let input: unknown;
    try {
      input = text.trim() ? JSON.parse(text) : {};
    } catch (err) {
      sendError(res, 400, 'INVALID_INPUT', `Request body is not valid JSON: ${(err as Error).message}`);
      return;
    }
    const sentBefore = eventsSent;
    const result = await options.dispatch(method, input);
    res.setHeader(EVENTS_SENT_HEADER, String(sentBefore));
    sendJson(res, result.ok ? 200 : STATUS_BY_CODE[result.error.code], result);
  };

  const handleEvents = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      ...securityHeaders,
    });
    // A short retry lets a tab that lost the connection (sleep, server restart) come back quickly.
    res.write('retry: 1000\n: connected\n\n');
    const unsubscribe = options.subscribe((event) => {
      res.write(`event: ${event.name}\ndata: ${JSON.stringify(event.payload)}\n\n`);
    });
    // Written in the same tick as the subscription: every event from this count on comes down this stream.
    res.write(`event: ${STREAM_HELLO_EVENT}\ndata: ${JSON.stringify({ events: eventsSent })}\n\n`);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), heartbeatMs);
    heartbeat.unref();
    req.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      if (!hostAllowed(req.headers.host)) {
        closeAfter(req, res)
          .writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', ...securityHeaders })
          .end('Forbidden: unexpected Host header.');
        return;
      }
      let url: URL;
      try {
        url = new URL(req.url ?? '/', `${scheme}://${req.headers.host}`);
      } catch {
        sendError(closeAfter(req, res), 400, 'INVALID_INPUT', 'The request address is not a valid URL.');
        return;
      }
      const isApi = url.pathname.startsWith('/api/');
      const isDownload = url.pathname === '/download/bundle';
      if (isApi || isDownload || url.pathname === '/events') {
        const origin = req.headers.origin;
        if (origin !== undefined && origin !== `${scheme}://${req.headers.host}`) {
          sendError(closeAfter(req, res), 403, 'INVALID_INPUT', 'Forbidden: cross-origin request.');
          return;
        }
        const status = tokenStatus(req, url);
        if (status !== 200) {
          const message = status === 401 ? 'Missing token: open the URL printed by `session-vault serve`.' : 'Wrong token.';
          sendError(closeAfter(req, res), status, 'INVALID_INPUT', message);
          return;
        }
        const method = isApi ? methodName(url.pathname) : '';
        if (method === null) {
          sendError(closeAfter(req, res), 400, 'INVALID_INPUT', 'The method name in the address is not valid percent-encoding.');
          return;
        }
        if (isApi) await handleApi(req, res, method);
        else if (isDownload) await sendBundleDownload(options.dispatch, url.searchParams.get('key'), res, (r) => STATUS_BY_CODE[r.error.code]);
        else handleEvents(req, res);
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        closeAfter(req, res)
          .writeHead(405, { Allow: 'GET', ...securityHeaders })
          .end();
        return;
      }
      await serveStatic(options.rendererDir, url.pathname, res);
    })().catch((err: unknown) => {
      // The details (paths, errno codes) go to the server's log, never to the client.
      console.error(err);
      if (!res.headersSent) sendError(closeAfter(req, res), 500, 'INTERNAL', 'Internal error: the request could not be answered.');
      else res.destroy();
    });
  };
  // node:https's server is node:http's over TLS, with the same request handling, timeouts and connection methods.
  const server = options.tls
    ? (createHttpsServer({ ...serverOptions(limits), cert: options.tls.cert, key: options.tls.key }, handler) as unknown as Server)
    : createServer(serverOptions(limits), handler);
  // Beyond this many open connections new ones are closed at once: a tab needs a handful.
  server.maxConnections = limits.maxConnections;
  server.on('close', stopCounting);
  return server;
}
