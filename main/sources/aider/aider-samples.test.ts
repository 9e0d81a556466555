// The aider reader over the sample corpus (samples/aider): one history file of three runs, two with a conversation.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readers } from '../registry.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { aiderReader, listAiderRuns, readAiderFile, readAiderRun } from './aider.ts';
import { runIds, splitRuns } from './aider-runs.ts';

const history = join(samplesDir, 'aider/myrepo/.aider.chat.history.md');
const local = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo - 1, d, h, mi).toISOString();

describe('aider sample', () => {
  it('is claimed by the aider reader alone', () => {
    expect(readers.filter((r) => r.claims(history)).map((r) => r.format)).toEqual(['aider']);
  });

  it('lists each run with a conversation as a session; the header-only third run is none', async () => {
    const list = await listAiderRuns(history);
    const [first, second] = runIds(history, splitRuns('# aider chat started at 2026-06-09 14:01:00\n# aider chat started at 2026-06-09 15:30:00\n').runs);
    expect(list.map((r) => r.id)).toEqual([first, second]);
    expect(first).toMatch(/^[0-9a-f]{8}-20260609T140100$/);
  });

  it('run 1: a prompt, an answer with its own "#### Step 1" heading, aider\'s edit notices; the edited files', async () => {
    const [run] = await listAiderRuns(history);
    const s = valid(await readAiderRun(history, run!.id));
    expect(s.key).toBe(`aider:${run!.id}`);
    expect(s.title).toBe('add a retry to the webhook');
    expect(s.messages.map((m) => [m.role, m.origin?.line])).toEqual([
      ['user', 4],
      ['assistant', 5],
      ['tool', 12],
    ]);
    expect(s.messages[1]!.parts).toEqual([
      { type: 'text', text: "I'll add exponential backoff to the webhook handler.\n\nHere is the plan:\n\n#### Step 1\nWrap the call in a loop." },
    ]);
    expect(s.artifacts.map((a) => a.path)).toEqual(['src/webhook.py', 'src/retry.py']);
    // Aider writes local wall-clock time; no message has a time of its own.
    expect([s.createdAt, s.updatedAt]).toEqual([local(2026, 6, 9, 14, 1), local(2026, 6, 9, 14, 1)]);
    expect(s.messages.every((m) => m.timestamp === null)).toBe(true);
    expect(s.project).toEqual({ path: join(samplesDir, 'aider/myrepo'), name: 'myrepo', branch: null, headCommit: null });
    expect([s.usage, s.cost, s.model]).toEqual([null, null, null]);
    expect(s.extra).toEqual({ run: 1, runsInFile: 3, header: '2026-06-09 14:01:00' });
    expect(s.status).toBe('closed');
    expect(s.warnings).toEqual([]);
  });

  it('run 2: its own prompt and answer only', async () => {
    const [, run] = await listAiderRuns(history);
    const s = valid(await readAiderRun(history, run!.id));
    expect(s.messages.map((m) => [m.role, m.parts[0]?.type === 'text' ? m.parts[0].text : null])).toEqual([
      ['user', 'make the timeout configurable'],
      ['assistant', 'Done. The timeout now reads from the environment.'],
      ['tool', 'Applied edit to src/config.py'],
    ]);
    expect(s.createdAt).toBe(local(2026, 6, 9, 15, 30));
    expect(s.extra.run).toBe(2);
  });

  it('read() of the whole file says it holds two sessions, each listed on its own', async () => {
    const err = await failure(() => readAiderFile(history));
    expect([err.code, err.message]).toEqual(['wrong_shape', 'This store holds 2 sessions; each is listed on its own.']);
    expect(aiderReader.container).toBeDefined();
  });
});
