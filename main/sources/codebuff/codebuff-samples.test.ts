// The Codebuff reader over the sample corpus (samples/codebuff): one chat with its run state and meta sidecar.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { codebuffReader, readCodebuffFile } from './codebuff.ts';

const chat = join(samplesDir, 'codebuff/.config/manicode/projects/myproject/chats/2026-07-15T15-04-00.000Z');
const DAY = 24 * 3600_000;

describe('Codebuff samples', () => {
  it('myproject chat: a prompt and a text-block answer, the agent type as model, cwd from run-state.json', async () => {
    const path = join(chat, 'chat-messages.json');
    expect(codebuffReader.claims(path)).toBe(true);
    expect(['run-state.json', 'chat-meta.json'].map((n) => [codebuffReader.claims(join(chat, n)), codebuffReader.companion?.(join(chat, n))])).toEqual([
      [false, true],
      [false, true],
    ]);
    const s = valid(await readCodebuffFile(path, statSync(path).mtimeMs + DAY));
    expect([s.key, s.id]).toEqual(['codebuff:myproject/2026-07-15T15-04-00.000Z', '2026-07-15T15-04-00.000Z']);
    expect(s.title).toBe('Fix the login bug');
    expect(s.messages.map((m) => [m.id, m.role, m.timestamp, m.parts])).toEqual([
      ['user-1', 'user', '2026-07-15T15:04:00.000Z', [{ type: 'text', text: 'Fix the login bug' }]],
      ['ai-1', 'assistant', '2026-07-15T15:05:00.000Z', [{ type: 'text', text: "I'll fix the login bug by updating the auth handler." }]],
    ]);
    expect(s.project).toEqual({ path: '/Users/dev/myproject', name: 'myproject', branch: null, headCommit: null });
    expect([s.createdAt, s.updatedAt]).toEqual(['2026-07-15T15:04:00.000Z', '2026-07-15T15:05:00.000Z']);
    expect(s.model).toEqual({ provider: 'codebuff', name: 'base2-deepseek', parameters: { agentType: 'base2-deepseek' } });
    expect([s.usage, s.cost]).toEqual([null, null]);
    expect(s.extra).toEqual({ project: 'myproject', agentType: 'base2-deepseek', contextTokens: 50000 });
    expect(s.sourceFiles.map((f) => f.path.split('/').at(-1))).toEqual(['chat-messages.json', 'run-state.json', 'chat-meta.json']);
    expect(s.status).toBe('closed');
    expect(s.warnings).toEqual([]);
  });
});
