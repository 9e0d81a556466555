// build/session.schema.json is the zod model's JSON Schema, and the schema's problems name exact JSON paths.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sessionJsonSchemaText } from './json-schema.ts';
import { schemaProblems } from './session-schema.ts';

const SHIPPED = resolve(import.meta.dirname, '../../build/session.schema.json');

describe('build/session.schema.json', () => {
  it('is in sync with main/recorder/session-schema.ts (regenerate with `node main/recorder/write-json-schema.ts`)', () => {
    expect(readFileSync(SHIPPED, 'utf8')).toBe(sessionJsonSchemaText());
  });

  it('describes the MVP fields a reader relies on', () => {
    const schema = JSON.parse(readFileSync(SHIPPED, 'utf8'));
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.required).toEqual(expect.arrayContaining(['id', 'created_at', 'updated_at', 'repo', 'config_effective', 'chat', 'operations', 'outcome']));
    expect(schema.properties.operations.items.properties.type.enum).toEqual([
      'proposal',
      'gate_open',
      'gate_accept',
      'gate_reject',
      'apply_diff',
      'revert',
      'test_run',
      'config_change',
    ]);
    expect(schema.properties.outcome.properties.status.enum).toEqual(['open', 'accepted', 'rejected', 'aborted']);
    expect(schema.properties.config_effective.additionalProperties.properties.provenance.enum).toEqual(['CLI', 'session', 'profile', 'default']);
  });
});

describe('schemaProblems', () => {
  it('names each problem by its JSON path', () => {
    const problems = schemaProblems({
      id: 'not-an-id',
      created_at: '2026-02-03 10:15',
      tool_version: '1',
      workflow_type: 'chat',
      mode: 'human',
      repo: { root: null, current_branch: null, head_sha: null },
      config_effective: { 'model.name': { value: 'gpt-5', provenance: 'cli' } },
      system_prompt_path: null,
      system_prompt_hash: null,
      model: { provider: null, name: null, temperature: null, thinking_level: null },
      chat: [{ role: 'robot', content: 'x', ts: '2026-02-03T10:15:00Z' }],
      operations: [{ type: 'proposal', detail: 'x', vcs: { staged: { A: [], M: [], D: [], R: [['only-one']] } }, ts: '2026-02-03T10:15:00Z' }],
      artifacts: [],
      outcome: { status: 'open' },
      extra: 1,
    });
    expect(problems.map((p) => p.path)).toEqual([
      '$.id',
      '$.created_at',
      '$.updated_at',
      '$.config_effective["model.name"].provenance',
      '$.chat[0].role',
      '$.operations[0].vcs.staged.R[0]',
      '$',
    ]);
    expect(problems.find((p) => p.path === '$.updated_at')?.message).toBe('is missing');
    expect(problems.find((p) => p.path === '$')?.message).toBe('unknown field "extra"');
  });
});
