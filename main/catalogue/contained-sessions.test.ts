// A contained session's catalogue path names its store and id and nothing else; a store's WAL leads back to the store.
import { describe, expect, it } from 'vitest';
import { containedPath, containedRef, storeOf, storeOfWal, versionStamp } from './contained-sessions.ts';

const store = '/home/ann/.local/share/opencode/opencode.db';

describe('contained session paths', () => {
  it('round-trip any id, even one with #, / or spaces, below the store', () => {
    for (const id of ['ses_4f2a', 'a/b#c d', '日本語', '%41']) {
      const path = containedPath(store, id);
      expect(path.startsWith(`${store}#`)).toBe(true);
      expect(path.slice(store.length + 1)).not.toMatch(/[/#]/);
      expect(containedRef(path)).toMatchObject({ store, id });
      expect(storeOf(path)).toBe(store);
    }
  });

  it('leave real files alone, a # in a folder name or a file no store reader claims included', () => {
    for (const path of ['/home/ann/C#/notes/session.jsonl', '/home/ann/x.db#ses_1', `${store}#`, '/home/ann/.codex/sessions/rollout.jsonl', `${store}#a%ZZ`]) {
      expect(containedRef(path)).toBeNull();
      expect(storeOf(path)).toBe(path);
    }
  });

  it('lead a store’s write-ahead log back to the store, and nothing else', () => {
    expect(storeOfWal(`${store}-wal`)).toBe(store);
    expect(storeOfWal(`${store}-shm`)).toBeNull();
    expect(storeOfWal('/home/ann/notes.db-wal')).toBeNull();
    expect(storeOfWal('/home/ann/.local/share/opencode/opencode-beta.db-wal')).toBe('/home/ann/.local/share/opencode/opencode-beta.db');
  });

  it('stamp versions as exact, non-negative numbers that differ when the version does', () => {
    const a = versionStamp('1767225600000:2:1767225630000:5:1767225630000');
    const b = versionStamp('1767225600000:4:1767225690000:10:1767225690000');
    expect(a).not.toBe(b);
    expect(versionStamp('1767225600000:2:1767225630000:5:1767225630000')).toBe(a);
    for (const n of [a, b]) expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
  });
});
