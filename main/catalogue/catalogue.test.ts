// The catalogue: unique keys, freshness, sub-agents listed under their parent, text/format filters.
import { describe, expect, it } from 'vitest';
import { Catalogue } from './catalogue.ts';
import type { SessionSummary } from '../../shared/session.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';

function summary(key: string, extra: Partial<SessionSummary> = {}): Extract<SummaryResponse, { ok: true }> {
  const [format, id] = key.split(':') as [SessionSummary['format'], string];
  return {
    id: 0,
    ok: true,
    summary: {
      key,
      id,
      format,
      title: id,
      projectPath: null,
      projectName: null,
      branch: null,
      createdAt: null,
      updatedAt: '2026-01-01T00:00:00.000Z',
      status: 'closed',
      outcomeStatus: null,
      outcomeSummary: null,
      model: null,
      messageCount: 1,
      toolCallCount: 0,
      totalTokens: null,
      costUsd: null,
      parentKey: null,
      childCount: 0,
      warningCount: 0,
      kept: false,
      sourceGone: false,
      starred: false,
      tags: [],
      hasNote: false,
      primaryPath: '',
      size: 1,
      mtimeMs: 1,
      unreadable: null,
      ...extra,
    },
    companions: [],
  };
}

describe('Catalogue', () => {
  it('lists a sub-agent under its parent (childCount) and not at top level, unless asked', () => {
    const c = new Catalogue();
    c.put('/r/p.jsonl', 1, 1, summary('claude-code:p'));
    c.put('/r/p/subagents/agent-a.jsonl', 1, 1, summary('claude-code:p/agent-a', { parentKey: 'claude-code:p' }));
    c.put('/r/p/subagents/agent-b.jsonl', 1, 1, summary('claude-code:p/agent-b', { parentKey: 'claude-code:p' }));
    const top = c.list({});
    expect(top.sessions.map((s) => [s.key, s.childCount])).toEqual([['claude-code:p', 2]]);
    expect(c.list({ includeChildren: true }).total).toBe(3);
    expect(c.childrenOf('claude-code:p')).toEqual(['claude-code:p/agent-a', 'claude-code:p/agent-b']);
  });

  it('keeps its sub-agents by parent and its kept copies right when an entry is read again with another parent, or removed', () => {
    const c = new Catalogue((path) => (path.startsWith('/vault/') ? 'copy' : null));
    c.put('/r/p.jsonl', 1, 1, summary('claude-code:p'));
    c.put('/r/q.jsonl', 1, 1, summary('claude-code:q'));
    c.put('/r/a.jsonl', 1, 1, summary('claude-code:a', { parentKey: 'claude-code:p' }));
    c.put('/r/b.jsonl', 1, 1, summary('claude-code:b', { parentKey: 'claude-code:p' }));
    c.put('/vault/p.json', 1, 1, summary('claude-code:p'));
    expect([...c.childCounts()]).toEqual([['claude-code:p', 2]]);
    // b is read again, now naming q as its parent: it leaves p's children.
    c.put('/r/b.jsonl', 2, 2, summary('claude-code:b', { parentKey: 'claude-code:q' }));
    expect([...c.childCounts()].sort()).toEqual([
      ['claude-code:p', 1],
      ['claude-code:q', 1],
    ]);
    expect(c.childrenOf('claude-code:q')).toEqual(['claude-code:b']);
    expect(c.list({}).sessions.map((s) => [s.key, s.childCount])).toEqual([
      ['claude-code:p', 1],
      ['claude-code:q', 1],
    ]);
    c.remove('/r/a.jsonl');
    c.put('/r/b.jsonl', 3, 3, summary('claude-code:b'));
    expect([...c.childCounts()]).toEqual([]);
    expect(c.childrenOf('claude-code:p')).toEqual([]);
    // The copy of p is shadowed by p's live file until that is removed.
    expect(c.hiddenPaths().shadowed).toEqual(['/vault/p.json']);
    c.remove('/r/p.jsonl');
    expect(c.hiddenPaths().shadowed).toEqual([]);
  });

  it('lists a session the vault kept twice once, and counts a kept sub-agent once under its parent', () => {
    const c = new Catalogue((path) => (path.startsWith('/vault/') ? 'copy' : null));
    c.put('/r/p.jsonl', 1, 1, summary('claude-code:p'));
    c.put('/r/a.jsonl', 1, 1, summary('claude-code:a', { parentKey: 'claude-code:p' }));
    c.put('/vault/a.jsonl', 1, 1, summary('claude-code:a', { parentKey: 'claude-code:p' }));
    expect(c.list({}).sessions.map((s) => [s.key, s.childCount])).toEqual([['claude-code:p', 1]]);
    expect(c.childrenOf('claude-code:p')).toEqual(['claude-code:a']);
    // Two copies of one session whose source is gone: the one that stands for it is listed, as the index's list does.
    c.put('/vault/old/q.jsonl', 1, 1, summary('claude-code:q'));
    c.put('/vault/new/q.jsonl', 1, 1, summary('claude-code:q'));
    expect(c.list({ text: 'q' }).sessions.map((s) => [s.key, s.primaryPath])).toEqual([['claude-code:q', '/vault/new/q.jsonl']]);
    expect(c.hiddenPaths().shadowed).toEqual(['/vault/a.jsonl', '/vault/old/q.jsonl']);
  });

  it('works out what the list hides again only after a put or remove that can change it', () => {
    const c = new Catalogue((path) => (path.startsWith('/vault/') ? 'copy' : null));
    c.put('/r/p.jsonl', 1, 1, summary('claude-code:p'));
    c.put('/r/a.jsonl', 1, 1, summary('claude-code:a', { parentKey: 'claude-code:p' }));
    c.put('/r/lone.jsonl', 1, 1, summary('claude-code:lone'));
    const first = c.hiddenPaths();
    expect(first.children).toEqual(['/r/a.jsonl']);
    // A session with no sub-agent and no kept copy grows: the same answer, not worked out again.
    c.put('/r/lone.jsonl', 2, 2, summary('claude-code:lone'));
    expect(c.hiddenPaths()).toBe(first);
    // The parent's file goes: its sub-agent is listed at top level.
    c.remove('/r/p.jsonl');
    expect(c.hiddenPaths().children).toEqual([]);
    // A kept copy of the parent stands for it: the sub-agent is under it again.
    c.put('/vault/p.json', 1, 1, summary('claude-code:p'));
    expect(c.hiddenPaths()).toMatchObject({ children: ['/r/a.jsonl'], shadowed: [] });
    // The live file comes back: the copy is shadowed.
    c.put('/r/p.jsonl', 1, 1, summary('claude-code:p'));
    expect(c.hiddenPaths()).toMatchObject({ children: ['/r/a.jsonl'], shadowed: ['/vault/p.json'] });
  });

  it('lists an unreadable file after every readable session, although its file is the newest', () => {
    const c = new Catalogue();
    c.put('/r/old.json', 1, 1, summary('jido-code:old', { updatedAt: '2025-03-01T00:00:00.000Z' }));
    c.put('/r/empty.json', 0, Date.parse('2026-11-27T00:00:00Z'), {
      id: 0,
      ok: false,
      format: 'jido-code',
      unreadable: { code: 'empty_file', message: 'File is empty (0 bytes).' },
    });
    c.put('/r/new.json', 1, 1, summary('jido-code:new', { updatedAt: '2026-01-01T00:00:00.000Z' }));
    expect(c.list({}).sessions.map((s) => s.key)).toEqual(['jido-code:new', 'jido-code:old', 'jido-code:empty']);
  });

  it('names an unreadable file of a folder layout after its folder, not the file name every session shares', () => {
    const c = new Catalogue();
    const empty = { id: 0, ok: false as const, format: 'vibe' as const, unreadable: { code: 'empty_file' as const, message: 'File is empty (0 bytes).' } };
    c.put('/h/.vibe/logs/session/session_20260613_120000_00000000/messages.jsonl', 0, 1, empty);
    c.put('/h/.jido_code/sessions/j-9.json', 0, 1, { ...empty, format: 'jido-code' });
    expect(
      c
        .list({})
        .sessions.map((s) => s.key)
        .sort(),
    ).toEqual(['jido-code:j-9', 'vibe:session_20260613_120000_00000000']);
  });

  it('keeps a sub-agent whose parent file is missing visible at top level', () => {
    const c = new Catalogue();
    c.put('/r/x/subagents/agent-a.jsonl', 1, 1, summary('claude-code:x/agent-a', { parentKey: 'claude-code:x' }));
    expect(c.list({}).sessions.map((s) => s.key)).toEqual(['claude-code:x/agent-a']);
  });

  it('gives a second file with the same id a distinct, stable key and frees it on removal', () => {
    const c = new Catalogue();
    const a = c.put('/a/s.json', 1, 1, summary('jido-code:s'));
    const b = c.put('/b/s.json', 1, 1, summary('jido-code:s'));
    expect(a).toBe('jido-code:s');
    expect(b).toMatch(/^jido-code:s~[0-9a-f]{8}$/);
    expect(c.put('/b/s.json', 2, 2, summary('jido-code:s'))).toBe(b);
    expect(c.remove('/a/s.json')).toBe('jido-code:s');
    expect(c.byKey(b)?.path).toBe('/b/s.json');
  });

  it('after a scan, forgets the files it did not see, but not one a watch event added while it ran', () => {
    const c = new Catalogue();
    c.put('/r/kept.json', 1, 1, summary('jido-code:kept'));
    c.put('/r/deleted.json', 1, 1, summary('jido-code:deleted'));
    c.put('/other/elsewhere.json', 1, 1, summary('jido-code:elsewhere'));
    const since = c.writes;
    // The scan's walk has passed the folder; then a new file appears and the watcher reads it in.
    c.put('/r/appeared.json', 1, 1, summary('jido-code:appeared'));
    expect(c.removeUnseen('/r', new Set(['/r/kept.json']), since)).toEqual(['jido-code:deleted']);
    expect(
      c
        .list({})
        .sessions.map((s) => s.key)
        .sort(),
    ).toEqual(['jido-code:appeared', 'jido-code:elsewhere', 'jido-code:kept']);
  });

  it('knows when a file is unchanged, and lists an unreadable file under its name with the reason', () => {
    const c = new Catalogue();
    c.put('/r/.jido_code/sessions/bad.json', 10, 5, {
      id: 0,
      ok: false,
      format: 'jido-code',
      unreadable: { code: 'empty_file', message: 'File is empty (0 bytes).' },
    });
    expect(c.isFresh('/r/.jido_code/sessions/bad.json', 10, 5)).toBe(true);
    expect(c.isFresh('/r/.jido_code/sessions/bad.json', 11, 5)).toBe(false);
    const [row] = c.list({}).sessions;
    expect(row).toMatchObject({ key: 'jido-code:bad', title: 'bad.json', unreadable: { code: 'empty_file' } });
  });

  it('knows which sessions were built from a companion file, and forgets them when re-read without it', () => {
    const c = new Catalogue();
    c.put('/v/sessions/2026-01-01_a.md', 1, 1, { ...summary('projecthub:a'), companions: ['/v/.projecthub/transcripts/a.jsonl', '/v/.projecthub/index.db'] });
    c.put('/v/sessions/2026-01-01_b.md', 1, 1, { ...summary('projecthub:b'), companions: ['/v/.projecthub/index.db'] });
    expect(c.ownersOf('/v/.projecthub/index.db').sort()).toEqual(['/v/sessions/2026-01-01_a.md', '/v/sessions/2026-01-01_b.md']);
    c.put('/v/sessions/2026-01-01_a.md', 2, 2, summary('projecthub:a'));
    expect(c.ownersOf('/v/.projecthub/transcripts/a.jsonl')).toEqual([]);
    c.markStale('/v/sessions/2026-01-01_b.md');
    expect(c.isFresh('/v/sessions/2026-01-01_b.md', 1, 1)).toBe(false);
  });

  it('filters by text across title, project, branch and id, and by format', () => {
    const c = new Catalogue();
    c.put('/1', 1, 1, summary('vizier:one', { title: 'Fix merge', branch: 'feat/sync' }));
    c.put('/2', 1, 1, summary('codex:two', { projectPath: '/home/dev/ledger' }));
    expect(c.list({ text: 'SYNC' }).sessions.map((s) => s.key)).toEqual(['vizier:one']);
    expect(c.list({ text: 'ledger' }).sessions.map((s) => s.key)).toEqual(['codex:two']);
    expect(c.list({ format: 'codex' }).total).toBe(1);
  });

  it('counts every removal asked for, of a listed path or not: a read in flight meanwhile knows its file may be gone', () => {
    const c = new Catalogue();
    c.put('/r/a.jsonl', 1, 1, summary('claude-code:a'));
    const before = c.removals;
    c.put('/r/b.jsonl', 1, 1, summary('claude-code:b'));
    expect(c.removals).toBe(before);
    // A file that appeared and went before its first read ended is not listed yet: its removal still counts.
    expect(c.remove('/r/never-listed.jsonl')).toBeNull();
    expect(c.removals).toBe(before + 1);
    expect(c.removeUnder('/elsewhere')).toEqual([]);
    expect(c.removals).toBe(before + 2);
    c.removeUnseen('/r', new Set(['/r/a.jsonl', '/r/b.jsonl']), c.writes);
    expect(c.removals).toBe(before + 3);
  });
});
