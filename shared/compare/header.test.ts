// Header, files and operations of a comparison built from session facts: config with provenance, VCS facts, nested operations.
import { describe, expect, it } from 'vitest';
import type { Operation } from '../session.ts';
import { compareSessions } from './compare.ts';
import { testSession, type TurnSpec } from './test-sessions.ts';

const op = (over: Partial<Operation> & Pick<Operation, 'id' | 'type'>): Operation => ({
  name: null,
  timestamp: null,
  endedAt: null,
  status: null,
  latencyMs: null,
  detail: null,
  vcs: null,
  usage: null,
  cost: null,
  parentId: null,
  childSessionKey: null,
  origin: null,
  ...over,
});
const TURNS: TurnSpec[] = [{ prompt: 'Make merge deterministic', steps: ['Patched.'] }];
const usage = (output: number) => ({ input: 0, output, cacheRead: 0, cacheWrite: 0, reasoning: 0 });

const a = testSession('vizier:a', TURNS, {
  model: { provider: 'openai', name: 'gpt-5', parameters: { temperature: 0.2 } },
  config: [
    { key: 'model.name', value: 'gpt-5', provenance: 'CLI' },
    { key: 'redact', value: ['secrets'], provenance: 'default' },
  ],
  cost: { usd: 0.3, estimated: true },
  operations: [
    op({ id: 'turn-1', type: 'turn', usage: usage(999) }),
    op({ id: 'llm-1', type: 'llm', parentId: 'turn-1', usage: usage(100) }),
    op({ id: 'llm-2', type: 'llm', parentId: 'turn-1', usage: usage(50) }),
    op({
      id: 'gate',
      type: 'gate_accept',
      status: 'accepted',
      vcs: {
        staged: { A: ['src/new.ts'], M: ['src/old.ts'], D: ['src/gone.ts'], R: [{ from: 'src/a.ts', to: 'src/b.ts' }] },
        appliedSha: 'abc1234def',
        restoredSha: null,
      },
    }),
  ],
});
const b = testSession('vizier:b', TURNS, {
  model: { provider: 'openai', name: 'gpt-5', parameters: { temperature: 0.7 } },
  config: [{ key: 'model.name', value: 'gpt-5', provenance: 'profile' }],
  cost: { usd: 0.42, estimated: false },
  operations: [
    op({
      id: 'gate',
      type: 'gate_accept',
      status: 'rejected',
      vcs: { staged: { A: [], M: ['src/old.ts'], D: [], R: [] }, appliedSha: null, restoredSha: null },
    }),
  ],
});
const c = compareSessions(a, b);
const row = (label: string) => c.header.find((h) => h.label === label);

describe('header rows', () => {
  it('shows each config value with where it came from, and a value one side lacks', () => {
    expect(row('model.name')).toMatchObject({ group: 'config', a: 'gpt-5 (CLI)', b: 'gpt-5 (profile)', same: false });
    expect(row('redact')).toMatchObject({ a: '["secrets"] (default)', b: null });
  });

  it('compares model parameters one by one', () => {
    expect(row('Model')).toMatchObject({ same: true });
    expect(row('temperature')).toMatchObject({ a: '0.2', b: '0.7', same: false });
  });

  it('says when a cost is an estimate, and gives the difference', () => {
    expect(row('Cost')).toMatchObject({ a: '$0.3000 (estimated)', b: '$0.4200', delta: '+$0.1200, +40%' });
  });

  it('sums nested operations once: the llm calls, not also the turn that holds them', () => {
    expect(row('Output tokens')?.a).toBe('150');
  });
});

describe('files and operations', () => {
  it('takes added, modified, deleted and renamed files from the operations’ VCS facts', () => {
    expect(c.files.map((f) => [f.path, f.a.join(), f.b.join(), f.status])).toEqual([
      ['src/b.ts', 'R', '', 'only-a'],
      ['src/gone.ts', 'D', '', 'only-a'],
      ['src/new.ts', 'A', '', 'only-a'],
      ['src/old.ts', 'M', 'M', 'same'],
    ]);
  });

  it('lays the timelines side by side: a nested tree, VCS in short, and a changed gate', () => {
    expect(c.a.operations.map((o) => [o.type, o.depth, o.vcs])).toEqual([
      ['turn', 0, null],
      ['llm', 1, null],
      ['llm', 1, null],
      ['gate_accept', 0, 'A1 M1 D1 R1 applied abc1234'],
    ]);
    expect(c.operationRows.map((r) => r.status)).toEqual(['deleted', 'deleted', 'deleted', 'changed']);
  });
});
