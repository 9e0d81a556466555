// Tests the active branch of a Pi session tree: rewinds leave the old branch out, broken parent links say so.
import { describe, expect, it } from 'vitest';
import { WarningList } from '../coerce.ts';
import { activeBranch } from './pi-branch.ts';
import { splitPiFile } from './pi-entries.ts';

function branchOf(...values: unknown[]) {
  const warnings = new WarningList();
  const file = splitPiFile(
    values.map((value, i) => ({ value, line: i + 1 })),
    warnings,
  );
  const branch = activeBranch(file.entries, file.header?.id ?? null, warnings);
  return { ids: branch.path.map((e) => e.id), off: branch.offBranch.map((e) => e.id), warnings: warnings.list() };
}

const header = { type: 'session', version: 3, id: 'S', timestamp: '2026-01-01T00:00:00Z', cwd: '/p' };
const entry = (id: string, parentId: string | null) => ({
  type: 'message',
  id,
  parentId,
  timestamp: '2026-01-01T00:00:01Z',
  message: { role: 'user', content: id },
});

describe('activeBranch', () => {
  it('follows the last entry back to the root, leaving a rewound branch out', () => {
    // a -> b -> c, then the user went back to b and continued: a -> b -> d -> e.
    const b = branchOf(header, entry('a', null), entry('b', 'a'), entry('c', 'b'), entry('d', 'b'), entry('e', 'd'));
    expect(b.ids).toEqual(['a', 'b', 'd', 'e']);
    expect(b.off).toEqual(['c']);
    expect(b.warnings).toEqual([]);
  });

  it('reads a parent that is the header as the entry before, quietly', () => {
    const b = branchOf(header, entry('a', 'S'), entry('b', 'S'), entry('c', 'b'));
    expect(b.ids).toEqual(['a', 'b', 'c']);
    expect(b.warnings).toEqual([]);
  });

  it('places an entry whose parent no entry has after the entry before it, with a warning', () => {
    const b = branchOf(header, entry('a', null), entry('b', 'a'), entry('c', 'tool-call-7'));
    expect(b.ids).toEqual(['a', 'b', 'c']);
    expect(b.warnings).toEqual([
      { code: 'unknown_parent', message: 'One entry names a parent that no entry of this file has; it was placed after the entry before it.', count: 1 },
    ]);
  });

  it('reads a parent that is a tool call of an earlier entry (as OpenClaw parents a result) as the entry before, quietly', () => {
    const call = { ...entry('b', 'a'), message: { role: 'assistant', content: [{ type: 'toolCall', id: 'tc-status', name: 'run', arguments: {} }] } };
    const b = branchOf(header, entry('a', null), call, entry('c', 'tc-status'), entry('d', 'c'));
    expect(b.ids).toEqual(['a', 'b', 'c', 'd']);
    expect(b.warnings).toEqual([]);
  });

  it('stops at a cycle instead of looping', () => {
    const b = branchOf(header, entry('a', 'b'), entry('b', 'a'));
    expect(b.ids).toEqual(['a', 'b']);
  });

  it('chains version 1 entries, which have no ids, in file order', () => {
    const v1 = { type: 'message', timestamp: '2026-01-01T00:00:01Z', message: { role: 'user', content: 'x' } };
    const b = branchOf({ type: 'session', id: 'S', timestamp: '2026-01-01T00:00:00Z', cwd: '/p' }, v1, v1, v1);
    expect(b.ids).toEqual(['line-2', 'line-3', 'line-4']);
  });
});
