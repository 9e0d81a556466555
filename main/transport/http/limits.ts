// How long and how much the HTTP transport waits for and reads from a client, and how it hangs up on one it refuses.
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';

export interface HttpLimits {
  /** The request line and headers must arrive within this (a slow-header client is cut off). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** An API call's body must be read within this once its headers are in (answered 408). */
  bodyTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are closed as they come (a tab uses a handful). */
  maxConnections: number;
  /** An API call's body at most (answered 413). */
  maxBodyBytes: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  bodyTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 64,
  maxBodyBytes: 1024 * 1024,
};

/** Options for createServer: Node checks the header and request timeouts every `connectionsCheckingInterval`. */
export function serverOptions(limits: HttpLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node's default looks every 30 s, so a 10 s header timeout would take up to 40 s to act.
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/**
 * Answers a refused request (401, 403, 405, 408, 413, 415) on a connection that then closes: the body is never
 * read, and a client still sending one (a 100 MB upload without a token) is cut off once the answer is out.
 */
export function closeAfter(req: IncomingMessage, res: ServerResponse): ServerResponse {
  res.shouldKeepAlive = false;
  res.setHeader('Connection', 'close');
  res.once('finish', () => req.socket.destroy());
  return res;
}
