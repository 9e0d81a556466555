// The HTTP transport against hostile clients: refused bodies are never read, slow or endless requests are cut off, errors say no paths.
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createHttpTransport } from './http-server.ts';
import { waitUntil } from '../test-support/wait-for.ts';
import type { ServiceMethods } from '../../shared/api.ts';
import { createDispatch } from './dispatch.ts';
import type { Dispatch } from './dispatch.ts';
import type { HttpLimits } from './http/limits.ts';

const TOKEN = 'limits-token';
const MB = 1024 * 1024;

let server: Server | null = null;
let rendererDir: string | null = null;
let port = 0;
/** Every connection the server accepted, to count the bytes it read. */
let accepted: Socket[] = [];

const echo: Dispatch = async (method) => ({ ok: true, value: { method } });

async function listen(limits: Partial<HttpLimits> = {}, dispatch: Dispatch = echo): Promise<void> {
  rendererDir = await mkdtemp(join(tmpdir(), 'sv-http-limits-'));
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Session Vault</title>');
  accepted = [];
  server = createHttpTransport({ dispatch, subscribe: () => () => undefined, token: TOKEN, rendererDir, port: () => port, limits });
  server.on('connection', (socket: Socket) => accepted.push(socket));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
}

afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((r) => server!.close(() => r()));
  }
  if (rendererDir) await rm(rendererDir, { recursive: true, force: true });
  server = null;
  rendererDir = null;
});

interface RawResult {
  response: string;
  /** Bytes the client managed to write before the server closed the connection. */
  sent: number;
  /** From the first byte written to the connection closing (or the deadline). */
  ms: number;
  closed: boolean;
}

/**
 * A raw client: writes `head`, then up to `bodyBytes` as fast as the server takes them (or `stallAfter` bytes and
 * then nothing), and reports what came back and whether the server closed the connection before `deadlineMs`.
 */
function rawRequest(head: string, bodyBytes: number, { deadlineMs = 5_000, stallAfter = Infinity } = {}): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let response = '';
    let sent = 0;
    let closed = false;
    const done = () => {
      clearTimeout(deadline);
      resolve({ response, sent, ms: Date.now() - started, closed });
    };
    const deadline = setTimeout(() => {
      socket.destroy();
      done();
    }, deadlineMs);
    socket.on('data', (d: Buffer) => (response += d.toString('latin1')));
    socket.on('error', () => undefined); // a reset after the answer is how the server hangs up on a sender
    socket.on('close', () => {
      closed = true;
      done();
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!socket.destroyed && sent < Math.min(bodyBytes, stallAfter)) {
        const n = Math.min(chunk.length, bodyBytes - sent, stallAfter - sent);
        sent += n;
        if (!socket.write(chunk.subarray(0, n))) return void socket.once('drain', pump);
      }
    };
    socket.write(head, pump);
  });
}

const post = (path: string, length: number, headers = '') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${headers}\r\n`;

const bytesReadByServer = () => accepted.reduce((sum, s) => sum + s.bytesRead, 0);

describe('HTTP transport limits', () => {
  it('answers a 100 MB POST without a token with 401 and closes without reading the body', async () => {
    await listen();
    const result = await rawRequest(post('/api/listSessions', 100 * MB), 100 * MB);
    expect(result.response).toMatch(/^HTTP\/1\.1 401 /);
    expect(result.response).toMatch(/\r\nConnection: close\r\n/i);
    expect(result.closed).toBe(true);
    expect(result.ms).toBeLessThan(3_000);
    expect(bytesReadByServer()).toBeLessThan(8 * MB);
  });

  it('closes the connection after a wrong token (403) the same way', async () => {
    await listen();
    const result = await rawRequest(post('/api/listSessions', 100 * MB, 'Authorization: Bearer wrong\r\n'), 100 * MB);
    expect(result.response).toMatch(/^HTTP\/1\.1 403 /);
    expect(result.closed).toBe(true);
    expect(bytesReadByServer()).toBeLessThan(8 * MB);
  });

  it('refuses a body over the cap with 413, by its Content-Length or as it grows, and stops reading it', async () => {
    await listen({ maxBodyBytes: 1 * MB });
    const auth = `Authorization: Bearer ${TOKEN}\r\n`;
    const declared = await rawRequest(post('/api/listSessions', 100 * MB, auth), 100 * MB);
    expect(declared.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(declared.response).toContain('"code":"INVALID_INPUT"');
    expect(declared.closed).toBe(true);
    expect(bytesReadByServer()).toBeLessThan(8 * MB);
    const chunked = await rawRequest(
      `POST /api/listSessions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${auth}\r\n${(4 * MB).toString(16)}\r\n`,
      4 * MB,
    );
    expect(chunked.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(chunked.closed).toBe(true);
  });

  it('cuts off a client that sends its headers too slowly', async () => {
    await listen({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const result = await rawRequest(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `, 0, { deadlineMs: 4_000 });
    expect(result.closed).toBe(true);
    expect(result.ms).toBeLessThan(3_000);
  });

  it('answers 408 and closes when a body stops arriving', async () => {
    await listen({ bodyTimeoutMs: 300 });
    const result = await rawRequest(post('/api/listSessions', 1000, `Authorization: Bearer ${TOKEN}\r\n`), 1000, { stallAfter: 10, deadlineMs: 4_000 });
    expect(result.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.closed).toBe(true);
    expect(result.ms).toBeLessThan(3_000);
  });

  it('closes connections beyond the cap at once', async () => {
    await listen({ maxConnections: 2 });
    const held = [connect(port, '127.0.0.1'), connect(port, '127.0.0.1')];
    await Promise.all(held.map((s) => new Promise((r) => s.once('connect', r))));
    // The server counts a connection once it has accepted it, which may come after the client saw it connect.
    await waitUntil(() => accepted.length === 2, 5000, 'the server to accept both connections');
    const third = await rawRequest(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 0, { deadlineMs: 2_000 });
    expect(third.closed).toBe(true);
    expect(third.response).toBe('');
    for (const s of held) s.destroy();
  });

  it('answers broken percent-encoding in the method name with 400 and a JSON error', async () => {
    await listen();
    const result = await rawRequest(post('/api/%E0%A4%A', 2, `Authorization: Bearer ${TOKEN}\r\n`) + '{}', 0);
    expect(result.response).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(result.response.slice(result.response.indexOf('{'), result.response.lastIndexOf('}') + 1)) as {
      ok: boolean;
      error: { code: string; message: string };
    };
    expect(body).toEqual({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('percent-encoding') } });
  });

  it('says a name is too long in words, without the errno code or the internal path', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sv-internal-data-'));
    try {
      const services = {
        listRoots: async () =>
          Promise.reject(
            await stat(join(dataDir, 'x'.repeat(300))).then(
              () => null,
              (e: unknown) => e,
            ),
          ),
      } as unknown as ServiceMethods;
      await listen({}, createDispatch(services, { log: () => undefined }));
      const result = await rawRequest(post('/api/listRoots', 2, `Authorization: Bearer ${TOKEN}\r\nConnection: close\r\n`) + '{}', 0);
      expect(result.response).toMatch(/^HTTP\/1\.1 400 /);
      expect(result.response).toContain('name is too long');
      expect(result.response).not.toContain(dataDir);
      expect(result.response).not.toContain('ENAMETOOLONG');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
