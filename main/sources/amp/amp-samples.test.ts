// The Amp reader over the sample corpus (samples/amp): each thread's messages, tokens, model, project and times.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHead } from '../head.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { ampReader, readAmpFile } from './amp.ts';

const threads = join(samplesDir, 'amp/.local/share/amp/threads');
const DAY = 24 * 3600_000;

async function read(name: string) {
  const path = join(threads, name);
  expect(ampReader.claims(path)).toBe(true);
  expect(ampReader.recognizes?.(await readHead(path))).toBe(true);
  return valid(await readAmpFile(path, statSync(path).mtimeMs + DAY));
}

describe('Amp samples', () => {
  it('T-019ca26f: a titled thread with its workspace tree and traces, no token data', async () => {
    const s = await read('T-019ca26f-aaaa-bbbb-cccc-dddddddddddd.json');
    expect(s.key).toBe('amp:T-019ca26f-aaaa-bbbb-cccc-dddddddddddd');
    expect(s.title).toBe('Migrate database schema');
    expect(s.formatVersion).toBe('1');
    expect(s.messages.map((m) => [m.role, m.parts.map((p) => (p.type === 'text' ? p.text : p.type))])).toEqual([
      ['user', ['Migrate the DB schema.']],
      ['assistant', ['Sure, I will help.']],
    ]);
    expect(s.project).toEqual({ path: '/home/user/myproject', name: 'myproject', branch: null, headCommit: null });
    // created is epoch ms; the last trace's end is the thread's last activity.
    expect([s.createdAt, s.updatedAt]).toEqual(['2024-01-01T00:00:00.000Z', '2024-01-01T00:00:05.000Z']);
    expect([s.usage, s.cost, s.model]).toEqual([null, null, null]);
    expect(s.messages[1]!.origin).toEqual({ fileIndex: 0, line: null, pointer: '/messages/1' });
    expect(s.status).toBe('closed');
    expect(s.warnings).toEqual([]);
  });

  it('T-thread-a: current schema, tokens per assistant message, a string prompt', async () => {
    const s = await read('T-thread-a.json');
    expect(s.key).toBe('amp:T-thread-a');
    expect(s.title).toBe('hi');
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(s.messages.map((m) => m.usage && [m.usage.input, m.usage.output, m.usage.cacheRead, m.usage.cacheWrite])).toEqual([
      null,
      [10, 178, 11372, 986],
      [5, 42, 12000, 0],
    ]);
    expect(s.messages.map((m) => m.timestamp)).toEqual([null, '2026-01-19T11:42:10.652Z', '2026-01-19T11:43:00.000Z']);
    expect(s.usage).toEqual({ input: 15, output: 220, cacheRead: 23372, cacheWrite: 986, reasoning: 0 });
    expect(s.model?.name).toBe('claude-haiku-4-5-20251001');
    expect(s.updatedAt).toBe('2026-01-19T11:43:00.000Z');
    // Amp records credits, not dollars: the cost is estimated from the model's prices, message by message.
    expect(s.cost?.estimated).toBe(true);
    const perMessage = s.messages.reduce((sum, m) => sum + (m.cost?.usd ?? 0), 0);
    expect(s.cost?.usd).toBeCloseTo(perMessage, 10);
    expect(s.cost?.usd).toBeGreaterThan(0);
    // The two replies hold tokens but no content: shown with a warning, not silently empty.
    expect(s.warnings.map((w) => w.code)).toEqual(['missing_content']);
  });
});
