// The realistic corpus is what the readers meet on a real machine: every file read without complaint, in the tools' record shapes, the same each time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findReader } from '../../sources/registry.ts';
import { realisticCorpus, type RealisticCorpus } from './corpus.ts';

let base = '';
let corpus: RealisticCorpus;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-realistic-'));
  corpus = await realisticCorpus(join(base, 'a'), { sizeMb: 3 });
}, 60_000);
afterAll(() => rm(base, { recursive: true, force: true }));

const lines = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the realistic corpus', () => {
  it('holds mostly Claude Code, then Codex, then Gemini, each file read by its format’s reader without a warning', async () => {
    const bytes = (format: string) => corpus.profile[format]?.bytes ?? 0;
    expect(bytes('claude-code')).toBeGreaterThan(bytes('codex'));
    expect(bytes('codex')).toBeGreaterThan(bytes('gemini'));
    expect(corpus.bytes).toBeGreaterThan(3 * 1024 * 1024);
    for (const file of corpus.files) {
      const reader = findReader(file.path);
      expect(reader?.format, file.path).toBe(file.format);
      const session = await reader!.read(file.path);
      expect(session.warnings, file.path).toEqual([]);
      expect(session.messages.length, file.path).toBeGreaterThan(0);
    }
  }, 60_000);

  it('writes Claude Code as the CLI does: split assistant lines sharing message id, request id and usage, tool payloads, snapshots, sub-agents', async () => {
    const claude = corpus.files.filter((f) => f.format === 'claude-code');
    const records = (await Promise.all(claude.map((f) => lines(f.path)))).flat();
    const assistant = records.filter((r) => r.type === 'assistant') as Array<{
      requestId: string;
      message: { id: string; usage: unknown; content: Array<{ type: string }> };
    }>;
    const byId = new Map<string, typeof assistant>();
    for (const r of assistant) byId.set(r.message.id, [...(byId.get(r.message.id) ?? []), r]);
    const split = [...byId.values()].filter((group) => group.length > 1);
    expect(split.length).toBeGreaterThan(0);
    for (const group of split) {
      expect(new Set(group.map((r) => r.requestId)).size).toBe(1);
      expect(new Set(group.map((r) => JSON.stringify(r.message.usage))).size).toBe(1);
      expect(group.every((r) => r.message.content.length === 1)).toBe(true);
    }
    const blocks = new Set(assistant.flatMap((r) => r.message.content.map((c) => c.type)));
    expect([...blocks].sort()).toEqual(['text', 'thinking', 'tool_use']);
    const results = records.filter((r) => JSON.stringify(r.message ?? '').includes('"tool_result"'));
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.toolUseResult !== undefined)).toBe(true);
    expect(records.some((r) => r.type === 'file-history-snapshot')).toBe(true);
    expect(claude.some((f) => f.path.includes('/subagents/agent-'))).toBe(true);
    expect(corpus.companions.length).toBeGreaterThan(0);
  });

  it('is the same corpus every time it is made', async () => {
    const again = await realisticCorpus(join(base, 'b'), { sizeMb: 3 });
    const shape = (c: RealisticCorpus) => c.files.map((f) => `${f.path.slice(c.root.length)} ${f.bytes}`);
    expect(shape(again)).toEqual(shape(corpus));
    expect(again.profile).toEqual(corpus.profile);
  }, 60_000);
});
