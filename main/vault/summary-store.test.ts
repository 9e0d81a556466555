// The vault's summary files: one atomic JSON file per session that outlives a restart, and changes another process makes are seen.
import { readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { testTempDir } from '../test-support/temp-dir.ts';
import { SummaryStore } from './summary-store.ts';

const summary = (overview: string, tags: string[] = []) => ({ overview, decisions: ['Use SQLite'], outcomes: ['Index built'], openItems: [], tags });

describe('SummaryStore', () => {
  it('writes one JSON file per session with who wrote it and when, and reads it back after a restart', async () => {
    const vault = testTempDir('sv-summaries-');
    const store = new SummaryStore(vault);
    store.load();
    const saved = await store.set('codex:abc', summary('Moved the index to SQLite.', ['search']), 'mcp: Claude Code', new Date('2026-03-01T10:00:00Z'));
    expect(saved).toEqual({ summary: summary('Moved the index to SQLite.', ['search']), author: 'mcp: Claude Code', updatedAt: '2026-03-01T10:00:00.000Z' });
    const files = await readdir(join(vault, 'summaries'));
    expect(files).toHaveLength(1);
    expect(JSON.parse(await readFile(join(vault, 'summaries', files[0] as string), 'utf8'))).toMatchObject({ key: 'codex:abc', author: 'mcp: Claude Code' });

    const restarted = new SummaryStore(vault);
    expect(restarted.load()).toEqual([]);
    expect(restarted.get('codex:abc')).toEqual(saved);
    expect(restarted.keys()).toEqual(['codex:abc']);
  });

  it('sees a summary another process wrote or removed, without a restart', async () => {
    const vault = testTempDir('sv-summaries-');
    const app = new SummaryStore(vault);
    app.load();
    expect(app.get('gemini:1')).toBeUndefined();
    const other = new SummaryStore(vault);
    other.load();
    await other.set('gemini:1', summary('Written by the MCP server process.'), 'mcp: Codex');
    expect(app.get('gemini:1')?.author).toBe('mcp: Codex');
    expect([...app.texts()]).toEqual([['gemini:1', 'Written by the MCP server process.\nUse SQLite\nIndex built']]);
    await other.remove('gemini:1');
    expect(app.get('gemini:1')).toBeUndefined();
    expect(app.keys()).toEqual([]);
  });

  it("sees another process's change that left the folder's and the file's times as they were (a coarse clock)", async () => {
    const vault = testTempDir('sv-summaries-');
    const dir = join(vault, 'summaries');
    const other = new SummaryStore(vault);
    other.load();
    await other.set('codex:1', summary('First version.'), 'cli');
    const [name] = await readdir(dir);
    const file = join(dir, name as string);
    // A file system that keeps whole seconds: the folder and the file stamped with this second.
    const second = Math.floor(Date.now() / 1000);
    await utimes(file, second, second);
    await utimes(dir, second, second);
    const app = new SummaryStore(vault);
    app.load();
    expect(app.get('codex:1')?.summary.overview).toBe('First version.');
    // Within the same second, another process rewrites one summary and adds one: both times read as before.
    await other.set('codex:1', summary('Second version.'), 'mcp: Codex');
    await other.set('codex:2', summary('Another session.'), 'mcp: Codex');
    await utimes(file, second, second);
    await utimes(dir, second, second);
    // A moment later (a listing this recent is trusted for 100 ms), the app sees both.
    await setTimeout(150);
    expect(app.get('codex:1')?.summary.overview).toBe('Second version.');
    expect(app.keys().sort()).toEqual(['codex:1', 'codex:2']);
  });

  it('skips a broken file with a reason and keeps the others', async () => {
    const vault = testTempDir('sv-summaries-');
    const store = new SummaryStore(vault);
    store.load();
    await store.set('claude-code:ok', summary('Fine.'), 'cli');
    await writeFile(join(vault, 'summaries', 'broken.json'), '{"key": "claude-code:bad", "summary": {"overview": ""}}');
    const reloaded = new SummaryStore(vault);
    expect(reloaded.load()).toEqual(['Summary file broken.json is not valid and was skipped.']);
    expect(reloaded.keys()).toEqual(['claude-code:ok']);
  });
});
