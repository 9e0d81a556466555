// Reads the Pi sample of the shared corpus and checks the facts it implies.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { piReader, readPiFile } from './pi.ts';

const path = join(samplesDir, 'pi/.pi/agent/sessions/--tmp-as-agent-fixture-project--/2026-05-12T01-02-27-657Z_019e19b4-eb48-746a-aa6b-8dfcfa37954b.jsonl');

describe('Pi sample', () => {
  it('reads the agent-sessions fixture: two turns, two compactions, usage and the recorded (zero) cost', async () => {
    expect(piReader.claims(path)).toBe(true);
    const s = valid(await readPiFile(path, statSync(path).mtimeMs + 3600_000));
    expect([s.key, s.title, s.project.path, s.status]).toEqual([
      'pi:019e19b4-eb48-746a-aa6b-8dfcfa37954b',
      'Read hello.py and summarize what it prints without editing files.',
      '/tmp/as-agent-fixture/project',
      'closed',
    ]);
    expect([s.createdAt, s.updatedAt]).toEqual(['2026-05-12T01:02:27.657Z', '2026-05-12T01:02:45.843Z']);
    expect(s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`)).toEqual([
      'user:text',
      'assistant:text',
      'system:compaction',
      'user:text',
      'assistant:text',
      'system:compaction',
    ]);
    expect(countToolCalls(s)).toBe(0);
    expect(s.messages[2]?.parts[0]).toEqual({ type: 'compaction', summary: 'hello.py prints a fixture greeting.', trigger: null, tokensBefore: 19 });
    expect(s.model).toEqual({ provider: 'pi-fixture', name: 'pi-fixture-model', parameters: { thinkingLevel: 'off' } });
    expect(s.usage).toEqual({ input: 24, output: 14, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(s.cost).toEqual({ usd: 0, estimated: false });
    expect([s.parentKey, s.childKeys, s.warnings]).toEqual([null, [], []]);
    expect(s.extra).toEqual({ version: 3, compactions: 2 });
  });
});
