// What the list hides: a kept copy while its live file is listed, a sub-agent under its listed parent (counted in the parent's child count).
import { describe, expect, it } from 'vitest';
import { hiddenPaths } from './hidden-paths.ts';

interface Listed {
  path: string;
  key: string;
  parentKey?: string;
  /** A vault's kept copy of the session. */
  copy?: boolean;
}

/** The rule's inputs as both catalogues build them: live files hold their key, a kept copy only while no live file does. */
function hiddenOf(listed: Listed[]) {
  const keyByPath = new Map(listed.map((e) => [e.path, e.key]));
  const live = new Map(listed.filter((e) => !e.copy).map((e) => [e.key, e.path]));
  const copies = new Map(listed.filter((e) => e.copy).map((e) => [e.key, e.path]));
  const byParent = new Map<string, string[]>();
  for (const e of listed) if (e.parentKey) byParent.set(e.parentKey, [...(byParent.get(e.parentKey) ?? []), e.path]);
  return hiddenPaths(
    listed.filter((e) => e.copy).map((e) => e.path),
    byParent,
    (path) => keyByPath.get(path) as string,
    (key) => live.get(key) ?? copies.get(key),
  );
}

describe('hidden paths', () => {
  it('hide a kept copy while its live file is listed, and show it once the live file is not', () => {
    const copy = { path: '/vault/sessions/a/a.jsonl', key: 'claude-code:a', copy: true };
    const live = { path: '/r/a.jsonl', key: 'claude-code:a' };
    expect(hiddenOf([copy, live])).toMatchObject({ shadowed: [copy.path], children: [] });
    expect(hiddenOf([copy])).toMatchObject({ shadowed: [], children: [] });
  });

  it('hide a sub-agent under its listed parent and count it there, and show it when its parent is not listed', () => {
    const parent = { path: '/r/p.jsonl', key: 'claude-code:p' };
    const agentA = { path: '/r/p/subagents/agent-a.jsonl', key: 'claude-code:p/agent-a', parentKey: 'claude-code:p' };
    const agentB = { path: '/r/p/subagents/agent-b.jsonl', key: 'claude-code:p/agent-b', parentKey: 'claude-code:p' };
    const withParent = hiddenOf([parent, agentA, agentB]);
    expect(withParent.children).toEqual([agentA.path, agentB.path]);
    expect([...withParent.childCounts]).toEqual([['claude-code:p', 2]]);
    expect(withParent.shadowed).toEqual([]);
    // The parent's file is gone: its sub-agents are listed at top level; the count still names the parent key.
    const orphans = hiddenOf([agentA, agentB]);
    expect(orphans.children).toEqual([]);
    expect([...orphans.childCounts]).toEqual([['claude-code:p', 2]]);
  });

  it('hide a sub-agent under a kept copy standing for its parent', () => {
    const parentCopy = { path: '/vault/sessions/p/p.jsonl', key: 'claude-code:p', copy: true };
    const agent = { path: '/r/p/subagents/agent-a.jsonl', key: 'claude-code:p/agent-a', parentKey: 'claude-code:p' };
    expect(hiddenOf([parentCopy, agent])).toMatchObject({ shadowed: [], children: [agent.path] });
  });

  it('hide a sub-agent’s kept copy as shadowed by its live file, which alone is hidden under the parent', () => {
    const parent = { path: '/r/p.jsonl', key: 'claude-code:p' };
    const agent = { path: '/r/p/subagents/agent-a.jsonl', key: 'claude-code:p/agent-a', parentKey: 'claude-code:p' };
    const agentCopy = { ...agent, path: '/vault/sessions/a/agent-a.jsonl', copy: true };
    const hidden = hiddenOf([parent, agentCopy, agent]);
    expect(hidden).toMatchObject({ shadowed: [agentCopy.path], children: [agent.path] });
    // One sub-agent, though two files name the parent.
    expect([...hidden.childCounts]).toEqual([['claude-code:p', 1]]);
  });
});
