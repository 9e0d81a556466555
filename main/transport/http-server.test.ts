// The HTTP transport: loopback Host check, token (401/403), JSON API over dispatch, SSE events, static UI.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { createHttpTransport } from './http-server.ts';
import { waitUntil } from '../test-support/wait-for.ts';
import type { AppEvent } from '../../shared/api.ts';
import type { Dispatch } from './dispatch.ts';

const TOKEN = 'test-token-123';

let server: Server;
let port = 0;
let rendererDir: string;
let calls: Array<{ method: string; input: unknown }>;
const bus = new EventEmitter();

const dispatch: Dispatch = async (method, input) => {
  calls.push({ method, input });
  if (method === 'getSession') return { ok: false, error: { code: 'INVALID_INPUT', message: 'key: expected string', field: 'key' } };
  return { ok: true, value: { echoed: method } };
};

function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    if (init.body) req.write(init.body);
    req.end();
  });
}

const api = (method: string, body: unknown, headers: Record<string, string> = {}) =>
  send(`/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...headers },
    body: JSON.stringify(body),
  });

beforeEach(async () => {
  calls = [];
  rendererDir = await mkdtemp(join(tmpdir(), 'sv-http-'));
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Session Vault</title>');
  server = createHttpTransport({
    dispatch,
    subscribe: (handler) => {
      bus.on('event', handler);
      return () => bus.off('event', handler);
    },
    token: TOKEN,
    rendererDir,
    port: () => port,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await rm(rendererDir, { recursive: true, force: true });
});

describe('HTTP transport', () => {
  it('dispatches POST /api/:method with the JSON body and returns the Result', async () => {
    const res = await api('listSessions', { text: 'x' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, value: { echoed: 'listSessions' } });
    expect(calls).toEqual([{ method: 'listSessions', input: { text: 'x' } }]);
  });

  it('maps an INVALID_INPUT result to HTTP 400 with the envelope intact', async () => {
    const res = await api('getSession', { key: 1 });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'INVALID_INPUT', field: 'key' });
  });

  it('refuses a missing token with 401 and a wrong one with 403, dispatching nothing', async () => {
    const missing = await send('/api/listSessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(missing.status).toBe(401);
    const wrong = await api('listSessions', {}, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(403);
    const events = await send('/events?token=nope');
    expect(events.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it('refuses a foreign Host header (DNS rebinding) even with the right token', async () => {
    const res = await api('listSessions', {}, { host: `evil.example:${port}` });
    expect(res.status).toBe(403);
    const page = await send('/', { headers: { host: 'evil.example' } });
    expect(page.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it('refuses cross-origin API calls', async () => {
    const res = await api('listSessions', {}, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it('answers a body that is not JSON with INVALID_INPUT', async () => {
    const res = await send('/api/listSessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: '{not json',
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe('INVALID_INPUT');
    expect(calls).toEqual([]);
  });

  it('serves the UI with a CSP and never a file outside the renderer folder', async () => {
    const page = await send('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Session Vault');
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'");
    for (const path of ['/../package.json', '/%2e%2e/%2e%2e/etc/passwd', '/..%2fpackage.json']) {
      expect((await send(path)).status).toBe(404);
    }
  });

  it('streams pushed events over SSE and keeps serving a reconnecting tab', async () => {
    const receive = () =>
      new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `/events?token=${TOKEN}` }, (res) => {
          expect(res.headers['content-type']).toContain('text/event-stream');
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            if (text.includes(': connected')) {
              const event: AppEvent = { name: 'sessionsChanged', payload: { changed: ['vizier:a'], removed: [] } };
              bus.emit('event', event);
            }
            if (text.includes('event: sessionsChanged')) {
              req.destroy();
              resolve(text);
            }
          });
        });
        req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
        req.end();
      });
    const first = await receive();
    expect(first).toContain('data: {"changed":["vizier:a"],"removed":[]}');
    // A second connection (the tab reconnecting) gets events too, and the old one was unsubscribed.
    await receive();
    // The server unsubscribes when it sees the connection close; what stays is its count of events sent.
    await waitUntil(() => bus.listenerCount('event') === 1, 5000, 'the closed streams to unsubscribe');
  });

  it('says on every answer how many events had gone out before the call, and opens each stream with that count', async () => {
    const changed = (key: string): AppEvent => ({ name: 'sessionsChanged', payload: { changed: [key], removed: [] } });
    expect((await api('listSessions', {})).headers['x-session-vault-events']).toBe('0');
    bus.emit('event', changed('vizier:a'));
    bus.emit('event', changed('vizier:b'));
    expect((await api('listRoots', {})).headers['x-session-vault-events']).toBe('2');
    // A service's refusal is an answer like any other; a request refused before dispatch (no JSON type) has no count.
    expect((await api('getSession', {})).headers['x-session-vault-events']).toBe('2');
    expect((await send('/api/listRoots', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).headers['x-session-vault-events']).toBeUndefined();

    const text = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: `/events?token=${TOKEN}` }, (res) => {
        let got = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          got += chunk;
          // Every event after the hello comes down the stream.
          if (got.includes('event: hello') && !got.includes('vizier:c')) bus.emit('event', changed('vizier:c'));
          if (got.includes('vizier:c')) {
            req.destroy();
            resolve(got);
          }
        });
      });
      req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
      req.end();
    });
    const events = text.split('\n\n').filter((block) => block.includes('event: '));
    expect(events).toEqual(['event: hello\ndata: {"events":2}', 'event: sessionsChanged\ndata: {"changed":["vizier:c"],"removed":[]}']);
    expect((await api('listRoots', {})).headers['x-session-vault-events']).toBe('3');
  });
});
