// Command-line session references: keys, ids and unique id prefixes resolve; unknown or ambiguous ones say why.
import { describe, expect, it } from 'vitest';
import { testSession } from '../../shared/compare/test-sessions.ts';
import type { SourceFormat } from '../../shared/session.ts';
import { toSummary } from '../../shared/summarize.ts';
import { resolveSessionRef } from './resolve-session.ts';

const summary = (format: SourceFormat, id: string) => toSummary(testSession(`${format}:${id}`, [], { id, format }));
const sessions = [
  summary('codex', '0195a000-1111'),
  summary('claude-code', '5b0d7c1e-3f2a'),
  summary('vizier', 'shared-id'),
  summary('jido-code', 'shared-id'),
];

describe('resolveSessionRef', () => {
  it('accepts a key, an id, or the unique start of an id', () => {
    expect(resolveSessionRef('vizier:shared-id', sessions)).toBe('vizier:shared-id');
    expect(resolveSessionRef('0195a000-1111', sessions)).toBe('codex:0195a000-1111');
    expect(resolveSessionRef('5b0d', sessions)).toBe('claude-code:5b0d7c1e-3f2a');
  });

  it('refuses an id two sessions share, listing their keys', () => {
    expect(() => resolveSessionRef('shared-id', sessions)).toThrow(/is the id of 2 sessions; give a key instead:\n {2}vizier:shared-id/);
  });

  it('says plainly when nothing matches', () => {
    expect(() => resolveSessionRef('nope', sessions)).toThrow('No session matches "nope"');
  });
});
