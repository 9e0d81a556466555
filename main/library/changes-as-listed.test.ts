// A removal reported while another file still holds the key (a kept copy beside its live file) goes out as a change.
import { describe, expect, it } from 'vitest';
import { changesAsListed } from './changes-as-listed.ts';

describe('changesAsListed', () => {
  it('reports a key another file still holds as changed, and the rest as they were', () => {
    const held = new Set(['claude-code:a']);
    const reports: Array<[string[], string[]]> = [];
    const catalogue = { byKey: (key: string) => (held.has(key) ? {} : undefined) };
    const report = changesAsListed({ catalogue, onChange: (changed, removed) => void reports.push([changed, removed]) });
    report(['codex:b'], ['claude-code:a', 'codex:gone']);
    report([], ['codex:gone']);
    report(['claude-code:a'], ['claude-code:a']);
    expect(reports).toEqual([
      [['codex:b', 'claude-code:a'], ['codex:gone']],
      [[], ['codex:gone']],
      [['claude-code:a'], []],
    ]);
  });
});
