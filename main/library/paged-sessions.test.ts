// Big sessions paged through their tables: every window read after a restart is the full read's, and any doubt falls back to the full read.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appendFile, mkdtemp, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session } from '../../shared/session.ts';
import { readClaudeCodeFile } from '../sources/claude-code/claude-code.ts';
import { readCodexFile } from '../sources/codex/codex.ts';
import { writeCodexRollout } from '../bench/generate-large.ts';
import { buildPageTable } from './page-table-build.ts';
import { loadPageTable, pageTableFile, savePageTable, sweepPageTables } from './page-table.ts';
import type { Paging } from './paged-sessions.ts';

let dir: string;
let paging: Paging;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sv-paged-'));
  paging = { dir: join(dir, 'data', 'pages'), minBytes: 0, pageMessages: 3 };
  vi.resetModules();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SESSION = 'cccccccc-0000-4000-8000-000000000001';
const base = { sessionId: SESSION, cwd: '/home/dev/p', version: '2.1.150', gitBranch: 'main', isSidechain: false, userType: 'external' };
const at = (n: number) => new Date(Date.parse('2026-06-01T09:00:00Z') + n * 1000).toISOString();
const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 };

/**
 * Turns as Claude Code writes them: a prompt, then one reply split over several lines sharing message.id and
 * requestId with a tool result between two of its lines, then a closing reply; every fifth turn is compacted.
 */
function transcript(turns: number, from = 0): string {
  const lines: unknown[] = [];
  let n = from * 100;
  const uuid = () => `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}`;
  for (let t = from; t < from + turns; t++) {
    lines.push({ ...base, type: 'user', uuid: uuid(), timestamp: at(n), message: { role: 'user', content: `Prompt ${t}: make the parser faster` } });
    const split = { id: `msg_${t}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', usage };
    const req = `req_${t}`;
    const call = (k: number) => ({ type: 'tool_use', id: `toolu_${t}_${k}`, name: 'Read', input: { file_path: `/p/f${k}.ts` } });
    lines.push({
      ...base,
      type: 'assistant',
      uuid: uuid(),
      timestamp: at(n),
      requestId: req,
      message: { ...split, content: [{ type: 'thinking', thinking: 'Look first.', signature: 's' }] },
    });
    lines.push({ ...base, type: 'assistant', uuid: uuid(), timestamp: at(n), requestId: req, message: { ...split, content: [call(1)] } });
    lines.push({
      ...base,
      type: 'user',
      uuid: uuid(),
      timestamp: at(n),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${t}_1`, content: 'one\ntwo' }] },
      toolUseResult: { stdout: 'one\ntwo' },
    });
    lines.push({ ...base, type: 'assistant', uuid: uuid(), timestamp: at(n), requestId: req, message: { ...split, content: [call(2)] } });
    lines.push({
      ...base,
      type: 'user',
      uuid: uuid(),
      timestamp: at(n),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${t}_2`, content: 'three' }] },
    });
    lines.push({
      ...base,
      type: 'assistant',
      uuid: uuid(),
      timestamp: at(n),
      requestId: `${req}b`,
      message: { ...split, id: `msg_${t}b`, content: [{ type: 'text', text: `Done ${t}.` }] },
    });
    if (t % 5 === 4) {
      lines.push({
        ...base,
        type: 'system',
        subtype: 'compact_boundary',
        uuid: uuid(),
        timestamp: at(n),
        compactMetadata: { trigger: 'auto', preTokens: 1000 },
      });
      lines.push({
        ...base,
        type: 'user',
        uuid: uuid(),
        timestamp: at(n),
        isCompactSummary: true,
        message: { role: 'user', content: `Summary up to turn ${t}` },
      });
    }
    lines.push({ type: 'file-history-snapshot', messageId: uuid(), snapshot: {} });
  }
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
}

async function claudeFile(text: string): Promise<string> {
  const folder = join(dir, 'projects', '-home-dev-p');
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${SESSION}.jsonl`);
  await writeFile(path, text);
  return path;
}

/** The full read, as the client sees it (JSON). */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/** A fresh worker's modules: nothing parsed, nothing loaded (what a restart leaves). */
async function restarted() {
  vi.resetModules();
  return { ...(await import('./paged-sessions.ts')), ...(await import('../workers/read-file.ts')) };
}

async function windowRequest(mod: Awaited<ReturnType<typeof restarted>>, path: string, offset: number, limit: number) {
  const response = await mod.readSessionFile({ id: 1, mode: 'window', path, offset, limit, paging });
  if (!response.ok || !('messagesTotal' in response)) throw new Error(`window failed: ${JSON.stringify(response)}`);
  return { session: response.session, messagesTotal: response.messagesTotal };
}

function expectWindow(actual: { session: Session; messagesTotal: number }, full: Session, offset: number, limit: number): void {
  expect(actual.messagesTotal).toBe(full.messages.length);
  expect(plain(actual.session)).toEqual(plain({ ...full, messages: full.messages.slice(offset, offset + limit) }));
}

describe('a big session after a restart', () => {
  it('reads the first, a middle and the last window from its table, each as the full read gives it', async () => {
    const path = await claudeFile(transcript(40));
    const full = await readClaudeCodeFile(path);
    expect(full.messages.length).toBeGreaterThan(150);
    // First run: read whole, answered, then the table is written.
    const first = await restarted();
    expectWindow(await windowRequest(first, path, 0, 25), full, 0, 25);
    await first.runDeferredWork();
    expect((await loadPageTable(paging.dir, path))?.pages.length).toBeGreaterThan(10);

    const after = await restarted();
    const middle = Math.floor(full.messages.length / 2) - 7;
    const last = full.messages.length - 20;
    for (const [offset, limit] of [
      [0, 25],
      [middle, 31],
      [last, 25],
      [3, 0],
    ] as const) {
      const paged = await after.windowFromTable(paging, path, offset, limit);
      expect(paged, `window ${offset}`).not.toBeNull();
      expectWindow(paged as { session: Session; messagesTotal: number }, full, offset, limit);
      expectWindow(await windowRequest(after, path, offset, limit), full, offset, limit);
    }
  });

  it('never cuts a reply whose lines share message.id, even where the cut rule would', async () => {
    // A prompt between two lines of one reply: the first cut after it would split the reply in two.
    const split = { id: 'msg_x', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', usage };
    const lines = [
      ...transcript(2).trim().split('\n'),
      JSON.stringify({ ...base, type: 'assistant', uuid: 'a1', timestamp: at(900), message: { ...split, content: [{ type: 'text', text: 'part one' }] } }),
      JSON.stringify({ ...base, type: 'user', uuid: 'u1', timestamp: at(901), message: { role: 'user', content: 'typed while it answered' } }),
      JSON.stringify({ ...base, type: 'user', uuid: 'u2', timestamp: at(902), message: { role: 'user', content: 'and again' } }),
      JSON.stringify({ ...base, type: 'assistant', uuid: 'a2', timestamp: at(903), message: { ...split, content: [{ type: 'text', text: 'part two' }] } }),
      ...transcript(2, 2).trim().split('\n'),
    ];
    const path = await claudeFile(`${lines.join('\n')}\n`);
    const full = await readClaudeCodeFile(path);
    const table = await buildPageTable(full, path, { pageMessages: 1 });
    expect(table).not.toBeNull();
    const reply = full.messages.findIndex((m) => m.parts.some((p) => p.type === 'text' && p.text === 'part one'));
    expect(full.messages[reply]?.parts.map((p) => (p.type === 'text' ? p.text : p.type))).toEqual(['part one', 'part two']);
    // The reply and the prompts typed inside it are one page.
    const starts = (table?.pages ?? []).map((p) => p[2]);
    expect(starts).not.toContain(reply + 1);
    expect(starts).not.toContain(reply + 2);
    await savePageTable(paging.dir, table as NonNullable<typeof table>);
    const mod = await restarted();
    for (let offset = 0; offset < full.messages.length; offset++) {
      const paged = await mod.windowFromTable(paging, path, offset, 2);
      expectWindow(paged as { session: Session; messagesTotal: number }, full, offset, 2);
    }
  });

  it('pages a Codex rollout (models and token totals carried across pages)', async () => {
    const path = join(dir, 'sessions', 'rollout-2026-06-02T09-00-00-019f0000-0000-7000-8000-000000000100.jsonl');
    await writeCodexRollout(path, 400_000);
    const full = await readCodexFile(path);
    const table = await buildPageTable(full, path, { pageMessages: 5 });
    expect(table?.pages.length).toBeGreaterThan(20);
    await savePageTable(paging.dir, table as NonNullable<typeof table>);
    const mod = await restarted();
    for (const offset of [0, 101, full.messages.length - 9]) {
      expectWindow((await mod.windowFromTable(paging, path, offset, 40)) as { session: Session; messagesTotal: number }, full, offset, 40);
    }
  });
});

describe('when the table cannot be trusted', () => {
  async function tabled(turns = 30): Promise<{ path: string; full: Session }> {
    const path = await claudeFile(transcript(turns));
    const full = await readClaudeCodeFile(path);
    const mod = await restarted();
    await windowRequest(mod, path, 0, 10);
    await mod.runDeferredWork();
    expect(await loadPageTable(paging.dir, path)).not.toBeNull();
    return { path, full };
  }

  it('a file rewritten in place (same size, same mtime, other last bytes) is read whole', async () => {
    const { path } = await tabled();
    const before = await stat(path);
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace(/Done 29\./, 'Done 92.'));
    await utimes(path, before.atimeMs / 1000, before.mtimeMs / 1000);
    expect(await stat(path)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });
    const mod = await restarted();
    expect(await mod.windowFromTable(paging, path, 0, 10)).toBeNull();
    const full = await readClaudeCodeFile(path);
    expectWindow(await windowRequest(mod, path, full.messages.length - 5, 5), full, full.messages.length - 5, 5);
  });

  it('pages that no longer read back (a line blanked in the middle, size, ends and mtime kept) drop the table', async () => {
    const { path } = await tabled();
    const before = await stat(path);
    const lines = (await readFile(path, 'utf8')).split('\n');
    const middle = lines.findIndex((l) => l.includes('Prompt 12:'));
    lines[middle] = ' '.repeat(Buffer.byteLength(lines[middle] as string));
    await writeFile(path, lines.join('\n'));
    await utimes(path, before.atimeMs / 1000, before.mtimeMs / 1000);
    const mod = await restarted();
    expect(await mod.windowFromTable(paging, path, 0, 10)).not.toBeNull();
    expect(await mod.windowFromTable(paging, path, 0, 1000)).toBeNull();
    expect(await loadPageTable(paging.dir, path)).toBeNull();
    const full = await readClaudeCodeFile(path);
    expectWindow(await windowRequest(mod, path, 30, 20), full, 30, 20);
  });

  it('a session that grew is read whole, every window right, and gets a new table', async () => {
    const { path } = await tabled();
    await appendFile(path, transcript(6, 30));
    const grown = await readClaudeCodeFile(path);
    const mod = await restarted();
    expect(await mod.windowFromTable(paging, path, 0, 10)).toBeNull();
    const last = grown.messages.length - 12;
    expectWindow(await windowRequest(mod, path, last, 12), grown, last, 12);
    await mod.runDeferredWork();
    const again = await restarted();
    for (const offset of [0, 40, last]) {
      expectWindow((await again.windowFromTable(paging, path, offset, 12)) as { session: Session; messagesTotal: number }, grown, offset, 12);
    }
  });

  it('a damaged table is passed over and nothing is lost: the full read answers and a new table replaces it', async () => {
    const { path, full } = await tabled();
    const file = pageTableFile(paging.dir, path);
    const good = await readFile(file, 'utf8');
    for (const damage of [good.slice(0, good.length / 2), '{"version":1}', 'not json', '']) {
      await writeFile(file, damage);
      const mod = await restarted();
      expect(await mod.windowFromTable(paging, path, 0, 10)).toBeNull();
      expectWindow(await windowRequest(mod, path, 5, 10), full, 5, 10);
      await mod.runDeferredWork();
      expect(await loadPageTable(paging.dir, path)).not.toBeNull();
    }
  });

  it('a missing table means a full read; a table whose session file is gone is swept away', async () => {
    const { path, full } = await tabled();
    await rm(pageTableFile(paging.dir, path));
    const mod = await restarted();
    expectWindow(await windowRequest(mod, path, 0, 10), full, 0, 10);
    await mod.runDeferredWork();
    expect(await readdir(paging.dir)).toHaveLength(1);
    await rm(path);
    expect(await sweepPageTables(paging.dir)).toBe(1);
    expect(await readdir(paging.dir)).toEqual([]);
  });

  it('a running session gets no table (its status changes with the clock alone)', async () => {
    const nowHour = new Date().toISOString().slice(0, 13);
    const prompt = { ...base, type: 'user', uuid: 'waiting', timestamp: new Date().toISOString(), message: { role: 'user', content: 'one more thing' } };
    const path = await claudeFile(transcript(20).replaceAll('2026-06-01T09', nowHour) + `${JSON.stringify(prompt)}\n`);
    const full = await readClaudeCodeFile(path);
    expect(full.status).toBe('active');
    const mod = await restarted();
    expectWindow(await windowRequest(mod, path, 0, 10), full, 0, 10);
    await mod.runDeferredWork();
    expect(await readdir(paging.dir).catch(() => [])).toEqual([]);
  });

  it('small sessions get no table', async () => {
    const path = await claudeFile(transcript(3));
    const mod = await restarted();
    paging = { ...paging, minBytes: 1024 * 1024 };
    await windowRequest(mod, path, 0, 10);
    await mod.runDeferredWork();
    expect(await readdir(paging.dir).catch(() => [])).toEqual([]);
  });
});
