// The HTTP + SSE transport against a fake fetch and a fake EventSource.
import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/api.ts';
import { createHttpTransport, eventCount, resolveToken, toResult, TOKEN_STORAGE_KEY } from './transport-http.ts';

class FakeEventSource {
  readyState = 0;
  closed = false;
  readonly listeners = new Map<string, Array<(e: unknown) => void>>();
  readonly url: string;
  constructor(url: string) {
    this.url = url;
  }
  addEventListener(type: string, fn: (e: unknown) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.closed = true;
  }
  fire(type: string, data?: string) {
    for (const fn of this.listeners.get(type) ?? []) fn({ data });
  }
}

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

describe('resolveToken', () => {
  it('takes the query token, remembers it, and falls back to it on a reload without the query', () => {
    const storage = memoryStorage();
    expect(resolveToken('?token=abc123', storage)).toBe('abc123');
    expect(storage.map.get(TOKEN_STORAGE_KEY)).toBe('abc123');
    expect(resolveToken('', storage)).toBe('abc123');
    expect(resolveToken('', memoryStorage())).toBeNull();
  });
});

describe('toResult', () => {
  it('keeps the server Result whatever the status, and wraps non-JSON bodies with the status', () => {
    expect(toResult(200, '{"ok":true,"value":{"n":1}}')).toEqual({ ok: true, value: { n: 1 } });
    expect(toResult(404, '{"ok":false,"error":{"code":"NOT_FOUND","message":"no such session"}}')).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'no such session' },
    });
    expect(toResult(401, 'Unauthorized')).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'HTTP 401: Unauthorized' } });
    expect(toResult(500, '{"weird":true}')).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });
});

describe('createHttpTransport', () => {
  it('POSTs /api/<method> with the JSON input and the bearer token', async () => {
    const requests: Array<{ url: string; init: RequestInit }> = [];
    const transport = createHttpTransport({
      token: 'tok',
      fetch: async (url, init) => {
        requests.push({ url: String(url), init: init ?? {} });
        return new Response('{"ok":true,"value":[]}', { status: 200 });
      },
    });
    await expect(transport.invoke('listRoots', {})).resolves.toEqual({ ok: true, value: [] });
    expect(requests[0]?.url).toBe('/api/listRoots');
    expect(requests[0]?.init.method).toBe('POST');
    expect(requests[0]?.init.body).toBe('{}');
    expect((requests[0]?.init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
  });

  it('reports an unreachable server as an INTERNAL Result instead of throwing', async () => {
    const transport = createHttpTransport({ token: 'tok', fetch: async () => Promise.reject(new TypeError('Failed to fetch')) });
    const result = await transport.invoke('getAppInfo', {});
    expect(result).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'Cannot reach the Session Vault server (Failed to fetch)' },
    });
  });

  it('delivers SSE events, drops malformed ones, and signals a refetch after a reconnect', () => {
    const sources: FakeEventSource[] = [];
    const transport = createHttpTransport({
      token: 'a b',
      createEventSource: (url) => {
        const es = new FakeEventSource(url);
        sources.push(es);
        return es as unknown as EventSource;
      },
    });
    const statuses: string[] = [];
    transport.onConnectionChange?.((s) => statuses.push(s));
    const got: AppEvent[] = [];
    const off = transport.subscribe((e) => got.push(e));
    const es = sources[0]!;
    expect(es.url).toBe('/events?token=a%20b');

    // The first opening asks for nothing by itself: its hello decides (below, and in the tests after this one).
    es.fire('open');
    es.fire('hello', '{"events":0}');
    es.fire('sessionsChanged', '{"changed":["vizier:1"],"removed":[]}');
    es.fire('sessionsChanged', 'not json');
    es.fire('rootsChanged', '{"roots":"nope"}');
    expect(got).toEqual([{ name: 'sessionsChanged', payload: { changed: ['vizier:1'], removed: [] } }]);

    // Events sent while the stream was down are lost: a reconnection asks for a full refetch.
    es.fire('error');
    es.fire('open');
    es.fire('hello', '{"events":5}');
    expect(got).toEqual([
      { name: 'sessionsChanged', payload: { changed: ['vizier:1'], removed: [] } },
      { name: 'sessionsChanged', payload: { changed: [], removed: [] } },
    ]);
    expect(statuses).toEqual(['connecting', 'online', 'offline', 'online']);

    off();
    expect(es.closed).toBe(true);
  });

  /** A transport whose every answer carries `counts[method]` as its event count (no header where undefined). */
  function counted(counts: Record<string, number | undefined>) {
    const sources: FakeEventSource[] = [];
    const transport = createHttpTransport({
      token: 't',
      fetch: async (url) => {
        const count = counts[String(url).slice('/api/'.length)];
        const headers = count === undefined ? undefined : { 'X-Session-Vault-Events': String(count) };
        return new Response('{"ok":true,"value":[]}', { status: 200, headers });
      },
      createEventSource: (url) => {
        const es = new FakeEventSource(url);
        sources.push(es);
        return es as unknown as EventSource;
      },
    });
    const got: AppEvent[] = [];
    transport.subscribe((e) => got.push(e));
    return { transport, got, es: sources[0]! };
  }

  it('fetches nothing again when every answer before the stream opened had seen every event (a settled vault)', async () => {
    const { transport, got, es } = counted({ listSessions: 4, listRoots: 4 });
    await Promise.all([transport.invoke('listSessions', {}), transport.invoke('listRoots', {})]);
    es.fire('open');
    es.fire('hello', '{"events":4}');
    expect(got).toEqual([]);
  });

  it('asks for a refetch when an answer predates an event sent before the stream opened, once the answers are in', async () => {
    const { transport, got, es } = counted({ listSessions: 2, listRoots: 4 });
    const answers = Promise.all([transport.invoke('listSessions', {}), transport.invoke('listRoots', {})]);
    es.fire('open');
    es.fire('hello', '{"events":4}');
    await answers;
    expect(got).toEqual([{ name: 'sessionsChanged', payload: { changed: [], removed: [] } }]);
  });

  it('asks for a refetch when an answer carried no count, or the hello could not be read', async () => {
    const noHeader = counted({ listSessions: undefined });
    await noHeader.transport.invoke('listSessions', {});
    noHeader.es.fire('open');
    noHeader.es.fire('hello', '{"events":0}');
    expect(noHeader.got).toHaveLength(1);

    const badHello = counted({ listSessions: 0 });
    await badHello.transport.invoke('listSessions', {});
    badHello.es.fire('open');
    badHello.es.fire('hello', '{"events":"lots"}');
    expect(badHello.got).toHaveLength(1);
  });
});

describe('eventCount', () => {
  it('reads a count from the header text or the hello, and nothing else', () => {
    expect(eventCount('12')).toBe(12);
    expect(eventCount(0)).toBe(0);
    for (const bad of [null, undefined, '', '-1', '1.5', ' 3', 'x', -1, 1.5, Number.MAX_SAFE_INTEGER + 2]) expect(eventCount(bad)).toBeNull();
  });
});
