// The raw record behind a message, and the summaries of related (parent / sub-agent) sessions, against a fake client.
import { describe, expect, it } from 'vitest';
import { ClientError } from '../transport/client.ts';
import { createAppStore } from './store.ts';
import { canLoadRecord } from './store-related.ts';
import { fakeClient, session, summary } from '../test-fixtures.ts';

const origin = { fileIndex: 1, line: 12, pointer: null };

function setup(recordImpl?: (input: unknown) => Promise<unknown>) {
  const fake = fakeClient({
    listSessions: async ({ includeChildren }: { includeChildren?: boolean }) => {
      const list = [summary({ key: 'cc:parent', childCount: 1 })];
      if (includeChildren) list.push(summary({ key: 'cc:parent/agent-1', title: 'Explore the repo', parentKey: 'cc:parent' }));
      return { sessions: list, total: list.length };
    },
    getSession: async ({ key }: { key: string }) => session({ key }),
    getRawRecord: recordImpl ?? (async () => ({ path: '/p/s.jsonl', text: '{"type":"user"}', truncated: false })),
  });
  return { fake, store: createAppStore(fake.client) };
}

describe('raw records', () => {
  it('loads the record named by the origin, then closes it on the second toggle', async () => {
    const { fake, store } = setup();
    await store.getState().openSession('cc:parent');
    await store.getState().toggleRawRecord('m1', origin);
    expect(fake.calls.find((c) => c.method === 'getRawRecord')?.input).toEqual({ key: 'cc:parent', fileIndex: 1, line: 12 });
    expect(store.getState().rawRecords.m1).toMatchObject({ loading: false, path: '/p/s.jsonl', text: '{"type":"user"}' });
    await store.getState().toggleRawRecord('m1', origin);
    expect(store.getState().rawRecords.m1).toBeUndefined();
  });

  it('sends a pointer for document formats and reports a failure as a sentence', async () => {
    const { fake, store } = setup(async () => Promise.reject(new ClientError('NOT_FOUND', 'The source file no longer exists')));
    await store.getState().openSession('cc:parent');
    await store.getState().toggleRawRecord('op:1', { fileIndex: 0, line: null, pointer: '/chat/3' });
    expect(fake.calls.find((c) => c.method === 'getRawRecord')?.input).toEqual({ key: 'cc:parent', fileIndex: 0, pointer: '/chat/3' });
    expect(store.getState().rawRecords['op:1']).toMatchObject({ loading: false, error: 'The source file no longer exists' });
  });

  it('drops an answer that arrives after another session was opened', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const { store } = setup(async () => {
      await gate;
      return { path: 'late', text: 'late', truncated: false };
    });
    await store.getState().openSession('cc:parent');
    const pending = store.getState().toggleRawRecord('m1', origin);
    await store.getState().openSession('cc:other');
    release();
    await pending;
    expect(store.getState().rawRecords).toEqual({});
  });

  it('only offers records whose origin names a line or a pointer', () => {
    expect(canLoadRecord(null)).toBe(false);
    expect(canLoadRecord({ fileIndex: 0, line: null, pointer: null })).toBe(false);
    expect(canLoadRecord(origin)).toBe(true);
  });
});

describe('related sessions', () => {
  it('fetches hidden sub-agent summaries once, and again after the sessions changed', async () => {
    const { fake, store } = setup();
    await store.getState().loadRelated(['cc:parent/agent-1', 'cc:missing']);
    expect(store.getState().related['cc:parent/agent-1']?.title).toBe('Explore the repo');
    // A key the library does not have is known as such (the header says so instead of "not counted yet").
    expect(store.getState().relatedNotFound).toEqual({ 'cc:missing': true });
    expect(fake.calls.filter((c) => c.method === 'listSessions').map((c) => c.input)).toEqual([{ includeChildren: true }]);
    await store.getState().loadRelated(['cc:parent/agent-1', 'cc:missing']);
    expect(fake.calls.filter((c) => c.method === 'listSessions')).toHaveLength(1);
    store.getState().resetRelated();
    expect(store.getState().related).toEqual({});
    expect(store.getState().relatedNotFound).toEqual({});
    await store.getState().loadRelated(['cc:parent/agent-1']);
    expect(fake.calls.filter((c) => c.method === 'listSessions')).toHaveLength(2);
  });
});
