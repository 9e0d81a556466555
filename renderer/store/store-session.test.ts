// The open session's messages in windows: a huge session shows its first window and fetches the next on demand.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from './store.ts';
import { fakeClient, session, summary } from '../test-fixtures.ts';

const older = summary({ key: 'vizier:a', title: 'Older', updatedAt: '2025-01-01T00:00:00Z' });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('messages in windows', () => {
  it('appends the next window of a huge session and stops when all are loaded', async () => {
    const fake = fakeClient({
      listSessions: async () => ({ sessions: [older], total: 1 }),
      getSession: async () => session({ key: older.key, messages: [], messagesTotal: 3 }),
      getMessages: async ({ offset }: { offset: number }) => ({ offset, messages: offset === 0 ? msgs(3) : [], total: 3 }),
    });
    function msgs(n: number) {
      return Array.from({ length: n }, (_, i) => ({
        id: `m${i}`,
        role: 'user' as const,
        timestamp: null,
        model: null,
        usage: null,
        cost: null,
        parts: [{ type: 'text' as const, text: `m${i}` }],
        agentId: null,
        origin: null,
      }));
    }
    const store = createAppStore(fake.client);
    await store.getState().refresh();
    await store.getState().openSession(older.key);
    expect(store.getState().open?.session?.messages).toHaveLength(0);
    await store.getState().loadMoreMessages();
    expect(store.getState().open?.session?.messages.map((m) => m.id)).toEqual(['m0', 'm1', 'm2']);
    const calls = fake.calls.filter((c) => c.method === 'getMessages').length;
    await store.getState().loadMoreMessages();
    expect(fake.calls.filter((c) => c.method === 'getMessages').length).toBe(calls);
  });
});
