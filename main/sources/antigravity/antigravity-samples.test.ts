// The Antigravity reader over the sample corpus (samples/antigravity): the CLI transcript, and the IDE artifact left unlisted.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countToolCalls } from '../../../shared/summarize.ts';
import { readers } from '../registry.ts';
import { resolveReader } from '../recognize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { antigravityReader, readAntigravityFile } from './antigravity.ts';

const gemini = join(samplesDir, 'antigravity/.gemini');
const DAY = 24 * 3600_000;

describe('Antigravity samples', () => {
  it('the CLI transcript: prompt, planner turns with thinking and tool calls, their results, a checkpoint, system notes', async () => {
    const path = join(gemini, 'antigravity-cli/brain/00000000-0000-4000-8000-00000000a902/.system_generated/logs/transcript.jsonl');
    expect(antigravityReader.claims(path)).toBe(true);
    const s = valid(await readAntigravityFile(path, statSync(path).mtimeMs + DAY));
    expect(s.key).toBe('antigravity:00000000-0000-4000-8000-00000000a902');
    expect(s.title).toBe('List the files.');
    expect(s.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`)).toEqual([
      'user:text',
      'assistant:thinking+tool_call',
      'tool:tool_result',
      'tool:tool_result',
      'tool:tool_result',
      'assistant:thinking+text',
      'system:compaction',
      'assistant:thinking+tool_call',
      'tool:tool_result',
      'tool:tool_result',
      'system:text',
      // The trimmed real steps at the end of the fixture.
      'tool:tool_result',
      'tool:tool_result',
      'tool:tool_result',
      'tool:tool_result',
      'system:text',
      'user:text',
      'tool:tool_result',
    ]);
    expect(countToolCalls(s)).toBe(2);
    // Calls carry no ids: each is paired with the result step that follows it.
    expect(s.messages[1]!.parts[1]).toEqual({
      type: 'tool_call',
      callId: 'step-3-0',
      name: 'list_dir',
      input: { DirectoryPath: '/tmp/repo', toolSummary: 'Listing contents' },
    });
    expect(s.messages[2]!.parts[0]).toEqual({ type: 'tool_result', callId: 'step-3-0', output: '{"name":"a.txt"}\n{"name":"b.txt"}\n', isError: false });
    expect(s.messages[8]!.parts[0]).toMatchObject({ callId: 'step-9-0', isError: false });
    expect(s.messages[6]!.parts[0]).toEqual({ type: 'compaction', summary: '# Resuming from a compaction', trigger: null, tokensBefore: null });
    expect(s.messages[0]!.annotations).toMatchObject({ note: 'The user changed setting `Model Selection` from None to Gemini 3.5 Flash (Medium).' });
    expect(s.messages[3]!.annotations).toMatchObject({ note: 'content clipped by Antigravity', stepType: 'VIEW_FILE' });
    expect(s.model?.name).toBe('Gemini 3.5 Flash (Medium)');
    expect(s.messages[1]!.model).toBe('Gemini 3.5 Flash (Medium)');
    expect([s.createdAt, s.updatedAt]).toEqual(['2026-06-26T21:16:16.000Z', '2026-06-26T21:16:26.000Z']);
    expect([s.usage, s.cost, s.project.path]).toEqual([null, null, null]);
    expect(s.extra).toEqual({ historyMarkers: 1 });
    expect(s.status).toBe('closed');
    // "[trimmed for fixture]" stands where seven steps had their times.
    expect(s.warnings).toEqual([{ code: 'bad_timestamp', message: expect.stringContaining('[trimmed for fixture]') as string, count: 7 }]);
  });

  it('the IDE brain artifact is a summary, not a transcript: no reader lists it (there is no CLI conversation of its id)', async () => {
    const path = join(gemini, 'antigravity/brain/00000000-0000-4000-8000-00000000a901/task.md');
    expect(readers.filter((r) => r.claims(path)).map((r) => r.format)).toEqual([]);
    expect(await resolveReader(path)).toBeUndefined();
  });
});
