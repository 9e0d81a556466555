// Tests for the untrusted-JSON helpers every document reader builds on.
import { describe, expect, it } from 'vitest';
import { addUsage, emptyUsage, Fields, flattenConfig, limitDepth, titleFromText, toIsoTimestamp, WarningList, lastSegment } from './coerce.ts';

describe('toIsoTimestamp', () => {
  it.each([
    ['2025-12-09 21:47:03.004518227 UTC', '2025-12-09T21:47:03.004Z'],
    ['2026-03-01 10:00:00.5 UTC', '2026-03-01T10:00:00.500Z'],
    ['2025-11-02T14:05:42.987654321+00:00', '2025-11-02T14:05:42.987Z'],
    ['2025-11-20T09:14:22.481-06:00', '2025-11-20T15:14:22.481Z'],
    ['2025-11-24T16:02:09.118+01:00', '2025-11-24T15:02:09.118Z'],
    ['2025-12-08T09:42:03.771940Z', '2025-12-08T09:42:03.771Z'],
    ['2031-01-01T00:00:00Z', '2031-01-01T00:00:00.000Z'],
    ['2026-01-05T08:30+0530', '2026-01-05T03:00:00.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(toIsoTimestamp(text)).toBe(iso);
  });

  it.each(['yesterday', '2025-02-30T10:00:00Z', '2025-13-01T00:00:00Z', '1700000000', ''])('rejects %j', (text) => {
    expect(toIsoTimestamp(text)).toBeNull();
  });
});

describe('Fields', () => {
  it('returns typed values and warns, naming the field and what it found, on a wrong type', () => {
    const warnings = new WarningList();
    const f = new Fields({ id: 42, name: 'x', repo: 'main', list: { a: 1 }, gone: null }, '', warnings);
    expect(f.string('id')).toBeNull();
    expect(f.string('name')).toBe('x');
    expect(f.object('repo')).toBeNull();
    expect(f.array('list')).toBeNull();
    expect(f.string('gone')).toBeNull();
    expect([...f.used]).toEqual(['name']);
    expect(warnings.list()).toEqual([
      { code: 'wrong_type', message: 'Field "id" should be a string but is a number (42); it was skipped.', count: 1 },
      { code: 'wrong_type', message: 'Field "repo" should be an object but is a string ("main"); it was skipped.', count: 1 },
      { code: 'wrong_type', message: 'Field "list" should be a list but is an object; it was skipped.', count: 1 },
    ]);
  });

  it('names nested fields with their full path and merges repeats into one counted warning', () => {
    const warnings = new WarningList();
    const top = new Fields({ repo: { root: 7 } }, '', warnings);
    expect(top.object('repo')?.string('root')).toBeNull();
    warnings.add('unknown_role', 'same');
    warnings.add('unknown_role', 'same');
    expect(warnings.list()).toEqual([
      { code: 'wrong_type', message: 'Field "repo.root" should be a string but is a number (7); it was skipped.', count: 1 },
      { code: 'unknown_role', message: 'same', count: 2 },
    ]);
  });

  it('treats infinite numbers (JSON 1e400) as unusable', () => {
    const warnings = new WarningList();
    expect(new Fields({ version: Infinity }, '', warnings).number('version')).toBeNull();
    expect(warnings.list()[0]?.message).toContain('a number too large to represent');
  });

  it('warns about a timestamp it cannot read instead of inventing one', () => {
    const warnings = new WarningList();
    const f = new Fields({ ts: 'last tuesday' }, 'chat[]', warnings);
    expect(f.timestamp('ts')).toBeNull();
    expect(warnings.list()[0]).toMatchObject({ code: 'bad_timestamp', message: expect.stringContaining('"chat[].ts"') });
  });
});

describe('limitDepth', () => {
  it('cuts values nested past the limit so they can always be serialised', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const warnings = new WarningList();
    const cut = limitDepth(deep, warnings, 'config', 3) as { a: { a: { a: unknown } } };
    expect(cut.a.a.a).toBe('[omitted: nested more than 3 levels deep]');
    expect(() => JSON.stringify(limitDepth(deep, warnings, 'config'))).not.toThrow();
    expect(warnings.list()[0]).toMatchObject({ code: 'too_deep' });
  });

  it('keeps a value nested up to the limit whole, and cuts one nested a level deeper', () => {
    const nest = (levels: number): unknown => (levels === 0 ? 'leaf' : { a: [nest(levels - 1)] });
    const warnings = new WarningList();
    // Each level is an object holding an array: the third level's array sits at depth 5, below a limit of 6.
    expect(limitDepth(nest(3), warnings, 'input', 6)).toEqual(nest(3));
    expect(warnings.list()).toEqual([]);
    const cut = limitDepth(nest(3), warnings, 'input', 5) as { a: [{ a: [{ a: unknown }] }] };
    expect(cut.a[0].a[0].a).toBe('[omitted: nested more than 5 levels deep]');
    expect(warnings.list()).toMatchObject([{ code: 'too_deep' }]);
  });

  it('keeps a "__proto__" key as plain data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}');
    const copy = limitDepth(value, new WarningList(), 'x') as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('flattenConfig', () => {
  it('turns nested objects into dotted keys and keeps lists and nulls as values', () => {
    const f = new Fields({ backend: 'agent', agent: { label: null, command: ['codex', 'exec'] }, empty: {} }, 'config', new WarningList());
    expect(flattenConfig(f, 'session')).toEqual([
      { key: 'backend', value: 'agent', provenance: 'session' },
      { key: 'agent.label', value: null, provenance: 'session' },
      { key: 'agent.command', value: ['codex', 'exec'], provenance: 'session' },
      { key: 'empty', value: {}, provenance: 'session' },
    ]);
  });
});

describe('titleFromText', () => {
  it('takes the first non-empty line, trimmed, at most 80 characters', () => {
    expect(titleFromText('\n   Fix the bug  \nmore')).toBe('Fix the bug');
    const long = 'x'.repeat(120);
    const title = titleFromText(long);
    expect(title).toHaveLength(80);
    expect(title?.endsWith('…')).toBe(true);
    expect(titleFromText('  \n ')).toBeNull();
  });
});

describe('lastSegment', () => {
  it('handles POSIX and Windows paths with trailing separators', () => {
    expect(lastSegment('/home/dev/proj/orbit-notes/')).toBe('orbit-notes');
    expect(lastSegment('C:\\Users\\dev\\src\\api')).toBe('api');
    expect(lastSegment('/')).toBeNull();
  });
});

describe('toIsoTimestamp fast path', () => {
  it('returns canonical UTC timestamps as they are, and still rejects impossible days', () => {
    expect(toIsoTimestamp('2026-05-26T10:00:02.000Z')).toBe('2026-05-26T10:00:02.000Z');
    expect(toIsoTimestamp('2026-02-29T10:00:02.000Z')).toBeNull();
    expect(toIsoTimestamp('2024-02-29T10:00:02.000Z')).toBe('2024-02-29T10:00:02.000Z');
    expect(toIsoTimestamp('2026-04-31T10:00:02.000Z')).toBeNull();
  });
});

describe('addUsage', () => {
  it('adds token counts, holding a sum past any number at the largest one instead of Infinity', () => {
    const total = emptyUsage();
    addUsage(total, { input: 10, output: 1e308, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    addUsage(total, { input: 5, output: 1e308, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(total).toEqual({ input: 15, output: Number.MAX_VALUE, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
  });
});
