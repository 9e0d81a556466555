// Recognition by content: a file's head decides where no path claims it, and wins over a misleading place.
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from '../../shared/session.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import { samplesDir } from '../test-support/samples.ts';
import { HEAD_BYTES, Head, topLevelScalars } from './head.ts';
import { chooseReader, resolveReader } from './recognize.ts';
import { findReader } from './registry.ts';

const ROLLOUT = join(samplesDir, 'loose/rollout.jsonl');
const CLAUDE = join(samplesDir, 'loose/claude-session (1).jsonl');

describe('recognition by content', () => {
  it('reads a Codex rollout under a Claude projects/<dir>/ folder as Codex; a Claude transcript there stays Claude Code', async () => {
    const dir = join(testTempDir('sv-recognize-'), '.claude', 'projects', '-home-u-src-x');
    mkdirSync(dir, { recursive: true });
    const codex = join(dir, '019dfed4-0000-7000-8000-00000000000a.jsonl');
    const claude = join(dir, '11111111-1111-4111-8111-111111111111.jsonl');
    copyFileSync(ROLLOUT, codex);
    copyFileSync(CLAUDE, claude);
    expect(findReader(codex)?.format).toBe('claude-code'); // the path alone says Claude Code
    const reader = await resolveReader(codex);
    expect(reader?.format).toBe('codex');
    const session = await reader!.read(codex);
    expect(Session.parse(session).format).toBe('codex');
    expect((await resolveReader(claude))?.format).toBe('claude-code');
  });

  it('keeps a path claim whose head no reader recognises (a broken file is listed with its reason, not dropped)', async () => {
    const dir = join(testTempDir('sv-recognize-'), '.claude', 'projects', '-home-u-src-x');
    mkdirSync(dir, { recursive: true });
    const torn = join(dir, 'torn.jsonl');
    writeFileSync(torn, '{"type":"us');
    expect((await resolveReader(torn))?.format).toBe('claude-code');
  });

  it('recognises no reader in files that are no agent session', async () => {
    const dir = testTempDir('sv-recognize-');
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'x', version: '1.0.0', dependencies: {} }),
      'events.jsonl': '{"level":"info","msg":"started","time":"2026-01-01T00:00:00Z"}\n{"level":"warn","msg":"slow"}\n',
      'expected.jsonl': readFileSync(join(samplesDir, 'claude-code/_expected/a_happy_single/expected.jsonl'), 'utf8'),
      'accounting.jsonl': readFileSync(join(samplesDir, 'ai-agent/accounting.jsonl'), 'utf8'),
      'empty.json': '',
      'notes.txt': readFileSync(CLAUDE, 'utf8'), // a session's bytes under a name recognition never opens
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    for (const name of Object.keys(files)) expect([name, (await resolveReader(join(dir, name)))?.format]).toEqual([name, undefined]);
  });

  it('tells a JSON document longer than the head by its top-level keys, read from the first 64 KB only', async () => {
    const doc = JSON.parse(readFileSync(join(samplesDir, 'loose/session-backup.json'), 'utf8')) as Record<string, unknown>;
    const big = JSON.stringify({ ...doc, conversation: [...(doc.conversation as unknown[]), { role: 'user', content: 'x'.repeat(HEAD_BYTES * 2) }] }, null, 2);
    const file = join(testTempDir('sv-recognize-'), 'backup.json');
    writeFileSync(file, big);
    expect(big.length).toBeGreaterThan(HEAD_BYTES * 2);
    expect((await resolveReader(file))?.format).toBe('jido-code');
  });

  it('recognises a rollout whose first line is longer than the head by its prefix', async () => {
    const file = join(samplesDir, 'malformed/huge_single_line_2MB__codex_rollout.jsonl');
    expect(chooseReader(join(testTempDir('sv-recognize-'), 'x.jsonl'), Head.fromBytes(readFileSync(file).subarray(0, HEAD_BYTES)))?.format).toBe('codex');
  });

  it('recognises nothing in a loose document cut inside a string, and does not throw', async () => {
    const file = join(testTempDir('sv-recognize-'), 'chat.json');
    writeFileSync(file, '{\n  "kind": "chat",\n  "startTime": "2026-\n  "lastUpdated": "2026-01-16T18:34:10.000Z",\n  "messages": [\n');
    await expect(resolveReader(file)).resolves.toBeUndefined();
  });

  it('scans top-level keys of a cut document, marking nested values by their kind', () => {
    expect(topLevelScalars('{"a": 1, "b": [1, {"c": "]"}], "d": {"e": 2}, "f": "te\\"xt", "g": [1, 2')).toEqual({ a: 1, b: [], d: {}, f: 'te"xt', g: [] });
    expect(topLevelScalars('[1, 2]')).toBeNull();
    // A line cut mid-write: the string it breaks off in runs on to the next quote, over a raw newline.
    expect(topLevelScalars('{\n  "kind": "chat",\n  "startTime": "2026-\n  "lastUpdated": "2026-01-16T18:34:10.000Z"\n}')).toEqual({ kind: 'chat' });
  });
});
