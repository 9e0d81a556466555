// Transport for `session-vault serve`: POST /api/<method> with a bearer token, events over SSE.
import type { AppEvent } from '../../shared/api.ts';
import { EVENTS_SENT_HEADER, STREAM_HELLO_EVENT } from '../../shared/event-count.ts';
import type { Result } from '../../shared/result.ts';
import type { ConnectionStatus, RendererTransport } from './client.ts';
import { EVENT_NAMES, eventPayload } from './event-payloads.ts';
import { MissedEvents } from './missed-events.ts';
import { appError } from './wire-checks.ts';

export const TOKEN_STORAGE_KEY = 'session-vault.token';

type EventSourceLike = Pick<EventSource, 'addEventListener' | 'close' | 'readyState'>;

export interface HttpTransportOptions {
  token: string | null;
  /** Prefix for /api and /events; empty means the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  createEventSource?: (url: string) => EventSourceLike;
  /** What a relative baseUrl is resolved against for download links; the page's address by default. */
  origin?: string;
}

/** The token comes from ?token= on first load and from sessionStorage after a reload without it. */
export function resolveToken(search: string, storage: Pick<Storage, 'getItem' | 'setItem'> | null): string | null {
  const fromQuery = new URLSearchParams(search).get('token');
  if (fromQuery) {
    try {
      storage?.setItem(TOKEN_STORAGE_KEY, fromQuery);
    } catch {
      // Storage can be disabled; the query still works for this load.
    }
    return fromQuery;
  }
  try {
    return storage?.getItem(TOKEN_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Any response body becomes a Result: the server's own envelope, or INTERNAL naming the HTTP status. */
export function toResult(status: number, body: string): Result<unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const text = body.trim().slice(0, 200);
    return { ok: false, error: { code: 'INTERNAL', message: `HTTP ${status}${text ? `: ${text}` : ''}` } };
  }
  if (parsed && typeof parsed === 'object' && 'ok' in parsed) {
    if (parsed.ok === true && 'value' in parsed) return { ok: true, value: parsed.value };
    if (parsed.ok === false && 'error' in parsed) {
      const error = appError(parsed.error);
      if (error) return { ok: false, error };
    }
  }
  return { ok: false, error: { code: 'INTERNAL', message: `HTTP ${status}: unexpected response from the server` } };
}

/** A count of events sent, as the server writes it (a header's text, the hello's `events`), or null. */
export function eventCount(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** The empty change that tells the store to fetch everything again. */
const RESYNC: AppEvent = { name: 'sessionsChanged', payload: { changed: [], removed: [] } };

export function createHttpTransport(options: HttpTransportOptions): RendererTransport {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const openStream = options.createEventSource ?? ((url: string) => new EventSource(url));
  const handlers = new Set<(event: AppEvent) => void>();
  const statusHandlers = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = 'connecting';
  let source: EventSourceLike | null = null;

  const setStatus = (next: ConnectionStatus) => {
    if (next === status) return;
    status = next;
    for (const h of statusHandlers) h(next);
  };
  const emit = (event: AppEvent) => {
    for (const h of [...handlers]) h(event);
  };
  // The answers fetched before the stream's first hello are refetched only if they may have missed an event.
  const missed = new MissedEvents(() => emit(RESYNC));
  let opens = 0;

  const connect = () => {
    const query = options.token ? `?token=${encodeURIComponent(options.token)}` : '';
    const es = openStream(`${base}/events${query}`);
    source = es;
    es.addEventListener('open', () => {
      setStatus('online');
      // Events sent while the stream was down are lost: an empty change tells the UI to refetch everything. On the
      // first connection the hello below says whether anything was missed (a settled vault: nothing, no refetch).
      if (opens++ > 0) emit(RESYNC);
    });
    es.addEventListener(STREAM_HELLO_EVENT, (e) => {
      if (opens !== 1) return;
      let data: unknown;
      try {
        data = JSON.parse((e as MessageEvent<string>).data);
      } catch {
        data = null;
      }
      missed.helloReceived(eventCount((data as { events?: unknown } | null)?.events));
    });
    es.addEventListener('error', () => {
      setStatus('offline');
    });
    for (const name of EVENT_NAMES) {
      es.addEventListener(name, (e) => {
        let data: unknown;
        try {
          data = JSON.parse((e as MessageEvent<string>).data);
        } catch {
          return;
        }
        const payload = eventPayload(name, data);
        if (payload) emit({ name, payload } as AppEvent);
      });
    }
  };

  return {
    bundleDownloadUrl(key) {
      const url = new URL(`${base}/download/bundle`, options.origin ?? globalThis.location?.href ?? 'http://127.0.0.1/');
      url.searchParams.set('key', key);
      if (options.token) url.searchParams.set('token', options.token);
      return url.href;
    },
    async invoke(method, input) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (options.token) headers.Authorization = `Bearer ${options.token}`;
      const done = missed.callStarted();
      let response: Response;
      try {
        response = await doFetch(`${base}/api/${method}`, { method: 'POST', headers, body: JSON.stringify(input ?? {}) });
      } catch (err) {
        done(null);
        const message = err instanceof Error ? err.message : String(err);
        return { ok: false, error: { code: 'INTERNAL', message: `Cannot reach the Session Vault server (${message})` } };
      }
      const text = await response.text().catch(() => null);
      done(text === null ? null : eventCount(response.headers.get(EVENTS_SENT_HEADER)));
      const result = toResult(response.status, text ?? '');
      if (!result.ok && (response.status === 401 || response.status === 403) && !options.token) {
        result.error.message += ' — open the address printed by `session-vault serve` (it carries the access token).';
      }
      return result;
    },
    subscribe(handler) {
      handlers.add(handler);
      if (!source) connect();
      return () => {
        handlers.delete(handler);
        if (handlers.size === 0 && source) {
          source.close();
          source = null;
        }
      };
    },
    onConnectionChange(handler) {
      statusHandlers.add(handler);
      handler(status);
      return () => statusHandlers.delete(handler);
    },
  };
}
