// The typed client: one function per contract method, values unwrapped, failures as ClientError.
import { describe, expect, it } from 'vitest';
import { methodNames, type AppEvent } from '../../shared/api.ts';
import type { Result } from '../../shared/result.ts';
import { ClientError, createClient, describeError, type RendererTransport } from './client.ts';

function transport(answer: (method: string, input: unknown) => Promise<Result<unknown>>): RendererTransport & { seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    seen,
    invoke: (method, input) => {
      seen.push([method, input]);
      return answer(method, input);
    },
    subscribe: () => () => {},
  };
}

describe('createClient', () => {
  it('has a function for every contract method and nothing is declared by hand', () => {
    const client = createClient(transport(async () => ({ ok: true, value: null })));
    for (const name of methodNames) expect(typeof client[name]).toBe('function');
  });

  it('sends the method and input and returns the unwrapped value', async () => {
    const t = transport(async () => ({ ok: true, value: { sessions: [], total: 0 } }));
    const client = createClient(t);
    await expect(client.listSessions({ text: 'fix' })).resolves.toEqual({ sessions: [], total: 0 });
    await client.getAppInfo();
    expect(t.seen).toEqual([
      ['listSessions', { text: 'fix' }],
      ['getAppInfo', {}],
    ]);
  });

  it('throws a ClientError carrying code, message and field on ok:false', async () => {
    const client = createClient(transport(async () => ({ ok: false, error: { code: 'INVALID_INPUT', message: 'path: too long', field: 'path' } })));
    const err = await client.addRoot({ path: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({ code: 'INVALID_INPUT', message: 'path: too long', field: 'path' });
  });

  it('turns a rejecting transport into an INTERNAL ClientError with a readable message', async () => {
    const client = createClient(transport(async () => Promise.reject(new Error('channel closed'))));
    const err = await client.listRoots().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'INTERNAL', message: 'Call to listRoots failed: channel closed' });
    expect(describeError(err)).toBe('Call to listRoots failed: channel closed');
  });

  it('passes events through and reports IPC-like transports as online', () => {
    const received: AppEvent[] = [];
    let push: (e: AppEvent) => void = () => {};
    const client = createClient({
      invoke: async () => ({ ok: true, value: null }),
      subscribe: (h) => {
        push = h;
        return () => {};
      },
    });
    client.subscribe((e) => received.push(e));
    push({ name: 'sessionsChanged', payload: { changed: ['a'], removed: [] } });
    expect(received).toHaveLength(1);
    const statuses: string[] = [];
    client.onConnectionChange((s) => statuses.push(s));
    expect(statuses).toEqual(['online']);
  });
});
