// The open session in the store: a huge session shows its first window and fetches the next on demand; a change on disk (its summary too) is followed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from './store.ts';
import { fakeClient, session, summary, textMessage } from '../test-fixtures.ts';

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
    const msgs = (n: number) => Array.from({ length: n }, (_, i) => textMessage(`m${i}`, `m${i}`));
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

describe('the open session follows changes on disk', () => {
  it('shows a summary another process wrote (the CLI, the MCP server) when the server says the session changed, once per change', async () => {
    let overview: string | null = null;
    const fake = fakeClient({
      listSessions: async () => ({ sessions: [older], total: 1 }),
      getSession: async () => session({ key: older.key }),
      getSummary: async () => ({
        summary:
          overview === null
            ? null
            : { overview, decisions: [], outcomes: [], openItems: [], tags: [], source: 'vault', author: 'cli', updatedAt: '2026-11-27T09:00:00Z' },
      }),
    });
    const store = createAppStore(fake.client, { debounceMs: 10 });
    await store.getState().refresh();
    await store.getState().openSession(older.key);
    await store.getState().loadSummary(older.key);
    expect(store.getState().summaryView?.summary).toBeNull();
    const summaryCalls = () => fake.calls.filter((c) => c.method === 'getSummary').length;
    const before = summaryCalls();

    overview = 'Written by the CLI.';
    fake.emit({ name: 'sessionsChanged', payload: { changed: [older.key], removed: [] } });
    await vi.advanceTimersByTimeAsync(20);
    expect(store.getState().summaryView?.summary?.overview).toBe('Written by the CLI.');
    expect(summaryCalls()).toBe(before + 1);

    // Another session's change leaves it alone.
    fake.emit({ name: 'sessionsChanged', payload: { changed: ['codex:other'], removed: [] } });
    await vi.advanceTimersByTimeAsync(20);
    expect(summaryCalls()).toBe(before + 1);
  });
});
