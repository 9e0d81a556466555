// Dispatch validates every input against the contract and always answers with a Result envelope.
import { describe, expect, it, vi } from 'vitest';
import type { ServiceMethods } from '../../shared/api.ts';
import { createDispatch } from './dispatch.ts';
import { AppError } from '../../shared/result.ts';

function fakeServices(overrides: Partial<ServiceMethods> = {}): ServiceMethods {
  const fail = async () => {
    throw new Error('not expected in this test');
  };
  return {
    getAppInfo: async () => ({ version: '1.0.0', dataDir: '/tmp/x', shell: 'cli', demoRootPath: null }),
    listSessions: async () => ({ sessions: [], total: 0 }),
    getSession: fail,
    getRawSource: fail,
    getRawRecord: fail,
    getMessages: fail,
    listRoots: async () => [],
    addRoot: fail,
    removeRoot: fail,
    openDemo: fail,
    ...overrides,
  } as ServiceMethods;
}

describe('dispatch', () => {
  it('calls the service with parsed input and wraps the value', async () => {
    const listSessions = vi.fn(async () => ({ sessions: [], total: 0 }));
    const dispatch = createDispatch(fakeServices({ listSessions }));
    const result = await dispatch('listSessions', { text: 'merge' });
    expect(result).toEqual({ ok: true, value: { sessions: [], total: 0 } });
    expect(listSessions).toHaveBeenCalledWith({ text: 'merge' });
  });

  it('fills contract defaults before the service sees the input', async () => {
    const getRawSource = vi.fn(async () => ({ path: '/a', size: 1, offset: 0, nextOffset: 1, text: 'x', truncated: false }));
    const dispatch = createDispatch(fakeServices({ getRawSource }));
    await dispatch('getRawSource', { key: 'vizier:1' });
    expect(getRawSource).toHaveBeenCalledWith({ key: 'vizier:1', fileIndex: 0, offset: 0, length: 256 * 1024 });
  });

  it('rejects a wrong-typed field with INVALID_INPUT naming the field, without calling the service', async () => {
    const getSession = vi.fn();
    const dispatch = createDispatch(fakeServices({ getSession }));
    const result = await dispatch('getSession', { key: 42 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_INPUT');
    expect(result.error.field).toBe('key');
    expect(result.error.message).toContain('getSession');
    expect(result.error.message).toContain('key');
    expect(getSession).not.toHaveBeenCalled();
  });

  it('refuses a time zone the runtime does not know for every usage method, naming the field (was INTERNAL from inside the report)', async () => {
    const usageReport = vi.fn();
    const dispatch = createDispatch(fakeServices({ usageReport, usageBlocks: usageReport, usageDashboard: usageReport }));
    for (const [method, input] of [
      ['usageReport', { period: 'daily', timezone: 'Mars/Base' }],
      ['usageBlocks', { timezone: 'Mars/Base' }],
      ['usageDashboard', { timezone: 'Mars/Base' }],
    ] as const) {
      const result = await dispatch(method, input);
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'timezone' } });
      if (!result.ok) expect(result.error.message).toContain('not a time zone');
    }
    expect(usageReport).not.toHaveBeenCalled();
  });

  it('rejects unknown extra fields (strict inputs) and non-object input', async () => {
    const dispatch = createDispatch(fakeServices());
    const extra = await dispatch('listRoots', { sneaky: true });
    expect(extra.ok || extra.error.code).toBe('INVALID_INPUT');
    const notObject = await dispatch('addRoot', 'path');
    expect(notObject.ok || notObject.error.code).toBe('INVALID_INPUT');
  });

  it('answers UNKNOWN_METHOD for names outside the contract, including prototype names', async () => {
    const dispatch = createDispatch(fakeServices());
    for (const name of ['deleteEverything', 'constructor', '__proto__', 'toString']) {
      const result = await dispatch(name, {});
      expect(result.ok || result.error.code).toBe('UNKNOWN_METHOD');
    }
  });

  it('passes AppError codes through and hides other errors behind INTERNAL with the message', async () => {
    const log = vi.fn();
    const notFound = createDispatch(fakeServices({ getSession: async () => Promise.reject(new AppError('NOT_FOUND', 'gone', 'key')) }), { log });
    expect(await notFound('getSession', { key: 'k' })).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'gone', field: 'key' } });
    const crash = createDispatch(fakeServices({ listRoots: async () => Promise.reject(new TypeError('boom')) }), { log });
    const result = await crash('listRoots', {});
    expect(result).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'Internal error in listRoots: boom' } });
    expect(log).toHaveBeenCalledOnce();
  });

  describe('during a start', () => {
    /** A start that ends when `finish` (or `fail`) is called. */
    function startInProgress() {
      let finish!: () => void;
      let fail!: (err: unknown) => void;
      const restoring = new Promise<void>((resolve, reject) => {
        finish = resolve;
        fail = reject;
      });
      return { restoring, finish, fail };
    }
    const settled = async <T>(promise: Promise<T>): Promise<boolean> => {
      let done = false;
      void promise.then(
        () => (done = true),
        () => (done = true),
      );
      for (let i = 0; i < 10; i++) await Promise.resolve();
      return done;
    };

    it('holds a call until the start is over, and answers the list at once', async () => {
      const start = startInProgress();
      const listRoots = vi.fn(async () => []);
      const listSessions = vi.fn(async () => ({ sessions: [], total: 0 }));
      const dispatch = createDispatch(fakeServices({ listRoots, listSessions }), { ready: () => start.restoring, exempt: ['listSessions'] });
      const roots = dispatch('listRoots', {});
      expect(await dispatch('listSessions', {})).toEqual({ ok: true, value: { sessions: [], total: 0 } });
      expect(await settled(roots)).toBe(false);
      expect(listRoots).not.toHaveBeenCalled();
      start.finish();
      expect(await roots).toEqual({ ok: true, value: [] });
      expect(listRoots).toHaveBeenCalledOnce();
    });

    it('answers invalid input at once, and before a start calls straight through', async () => {
      const start = startInProgress();
      let ready: Promise<void> | null = null;
      const dispatch = createDispatch(fakeServices(), { ready: () => ready });
      expect(await dispatch('listRoots', {})).toEqual({ ok: true, value: [] });
      ready = start.restoring;
      expect(await dispatch('getSession', { key: 42 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(await settled(dispatch('listRoots', {}))).toBe(false);
    });

    it('fails the calls that waited when the start fails, with its error', async () => {
      const start = startInProgress();
      const listRoots = vi.fn(async () => []);
      const dispatch = createDispatch(fakeServices({ listRoots }), { ready: () => start.restoring });
      const roots = dispatch('listRoots', {});
      start.fail(new AppError('IO_ERROR', 'The vault could not be read.'));
      expect(await roots).toEqual({ ok: false, error: { code: 'IO_ERROR', message: 'The vault could not be read.' } });
      expect(listRoots).not.toHaveBeenCalled();
    });
  });
});
