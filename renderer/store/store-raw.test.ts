// The raw view's reads: the open session's file in windows, and answers for a session no longer open dropped.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from './store.ts';
import { fakeClient, session, summary } from '../test-fixtures.ts';

const older = summary({ key: 'vizier:a', title: 'Older', updatedAt: '2025-01-01T00:00:00Z' });
const broken = summary({
  key: 'vizier:c',
  title: 'broken.json',
  updatedAt: null,
  mtimeMs: Date.parse('2025-03-01T00:00:00Z'),
  unreadable: { code: 'invalid_json', message: 'Unexpected end of JSON at line 3' },
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('raw source', () => {
  it('loads the open session file and appends the next window on load more', async () => {
    const text = 'line-1\nline-2\nline-3\n';
    const fake = fakeClient({
      listSessions: async () => ({ sessions: [older], total: 1 }),
      getSession: async () => session({ key: older.key }),
      getRawSource: async ({ offset, length }: { offset: number; length: number }) => ({
        path: '/data/a.jsonl',
        size: text.length,
        offset,
        nextOffset: Math.min(offset + length, text.length),
        text: text.slice(offset, offset + length),
        truncated: offset + length < text.length,
      }),
    });
    const store = createAppStore(fake.client, { rawChunkBytes: 7 });
    await store.getState().refresh();
    await store.getState().openSession(older.key);
    await store.getState().loadRaw();
    expect(store.getState().raw).toMatchObject({ text: 'line-1\n', truncated: true, path: '/data/a.jsonl' });
    await store.getState().loadMoreRaw();
    await store.getState().loadMoreRaw();
    expect(store.getState().raw).toMatchObject({ text, truncated: false });
  });

  it('drops a raw answer that arrives after another session was opened', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const fake = fakeClient({
      listSessions: async () => ({ sessions: [older, broken], total: 2 }),
      getSession: async () => session({ key: older.key }),
      getRawSource: async ({ key }: { key: string }) => {
        if (key === older.key) await gate;
        return { path: key, size: 1, offset: 0, text: key, truncated: false };
      },
    });
    const store = createAppStore(fake.client);
    await store.getState().refresh();
    await store.getState().openSession(older.key);
    const slow = store.getState().loadRaw();
    await store.getState().openSession(broken.key);
    await store.getState().loadRaw();
    release();
    await slow;
    expect(store.getState().raw?.text).toBe(broken.key);
  });
});
