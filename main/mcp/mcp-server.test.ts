// `session-vault mcp` driven by the MCP SDK's own client over stdio: the Session Summarize workflow end to end, and refusals that name the field.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, CLI_ENTRY } from '../test-support/run-cli.ts';
import { samplesDir } from '../test-support/samples.ts';
import { jidoSession } from '../test-support/session-files.ts';

const CODEX_SAMPLE = 'rollout-2026-08-03T10-48-56-019fc8be-3658-7ca3-9e29-000000000000.jsonl';
const CODEX_KEY = 'codex:019fc8be-3658-7ca3-9e29-000000000000';

/** j-2: the newest session, whose third message (index 2) holds a word no other session has. */
function longerJidoSession(): string {
  const doc = JSON.parse(jidoSession('j-2', 'frontend', '2026-09-01T10:00:00.000000Z')) as { conversation: unknown[] };
  doc.conversation.push(
    { id: 'a3', role: 'user', content: 'Why does the heliotrope widget flicker on resize?', timestamp: '2026-01-02T09:01:00.000000Z' },
    { id: 'a4', role: 'assistant', content: 'It re-measures on every frame; now it waits for the resize to settle.', timestamp: '2026-01-02T09:02:00.000000Z' },
  );
  return JSON.stringify(doc);
}

let base: string;
let root: string;
let client: Client;

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => (await client.callTool({ name, arguments: args })) as ToolResult;
const text = (r: ToolResult) => r.content.map((c) => c.text ?? '').join('\n');
const listedKeys = async (args: Record<string, unknown>) =>
  ((await call('sessions_list', { limit: 100, ...args })).structuredContent?.sessions as Array<{ key: string }>).map((s) => s.key).sort();

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sv-mcp-'));
  root = join(base, 'root');
  const jido = join(root, '.jido_code', 'sessions');
  await mkdir(jido, { recursive: true });
  await writeFile(join(jido, 'j-1.json'), jidoSession('j-1', 'etlpipeline'));
  await writeFile(join(jido, 'j-2.json'), longerJidoSession());
  const codex = join(root, '.codex', 'sessions', '2026', '08', '03');
  await mkdir(codex, { recursive: true });
  await copyFile(join(samplesDir, 'codex', 'sessions', '2026', '08', '03', CODEX_SAMPLE), join(codex, CODEX_SAMPLE));
  const env = Object.fromEntries(
    Object.entries({ ...process.env, SESSION_VAULT_HOME: join(base, 'data'), HOME: join(base, 'home') }).filter(
      (e): e is [string, string] => e[1] !== undefined,
    ),
  );
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_ENTRY, 'mcp', '--root', root, '--no-defaults'], env, stderr: 'pipe' });
  client = new Client({ name: 'session-vault-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await rm(base, { recursive: true, force: true });
});

describe('session-vault mcp', () => {
  it('offers the six tools, all read-only but session_update_summary', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'session_transcript',
      'session_update_summary',
      'sessions_compare',
      'sessions_list',
      'sessions_search',
      'usage_report',
    ]);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(tool.name !== 'session_update_summary');
    const update = tools.find((t) => t.name === 'session_update_summary');
    expect(update?.inputSchema.required).toEqual(expect.arrayContaining(['key', 'overview']));
  });

  it('runs the Session Summarize workflow: list unsummarized, read page by page, save, gone from the list, found by search', async () => {
    const unsummarized = await listedKeys({ hasSummary: false });
    expect(unsummarized).toEqual(['codex:019fc8be-3658-7ca3-9e29-000000000000', 'jido-code:j-1', 'jido-code:j-2']);

    // The transcript in pages of at most 1,000 characters, until there is no next page.
    type Cursor = { fromMessage: number; fromChar: number } | null;
    let cursor: Cursor = { fromMessage: 0, fromChar: 0 };
    const pages: Array<{ text: string; throughMessage: number | null; messagesTotal: number }> = [];
    while (cursor) {
      const page = await call('session_transcript', { key: CODEX_KEY, ...cursor, maxChars: 1000 });
      expect(page.isError).toBeFalsy();
      const structured = page.structuredContent as { text: string; throughMessage: number | null; messagesTotal: number; next: Cursor };
      expect(structured.text.length).toBeLessThanOrEqual(1000);
      // What the assistant reads (the page and where the next one starts) keeps to the budget too.
      expect(text(page).length).toBeLessThanOrEqual(1000);
      expect(text(page).startsWith(structured.text)).toBe(true);
      pages.push(structured);
      cursor = structured.next;
      expect(pages.length).toBeLessThan(200);
    }
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages[0]?.text).toMatch(/^# .+\nCodex · /);
    expect(pages.at(-1)?.throughMessage).toBe((pages[0]?.messagesTotal ?? 0) - 1);
    expect(pages.map((p) => p.text).join('')).toContain('[tool call shell] command: ls');

    const saved = await call('session_update_summary', {
      key: CODEX_KEY,
      overview: 'Trimmed the quokkafold fixture and checked the release notes.',
      decisions: ['Keep the fixture small'],
      outcomes: ['Fixture trimmed'],
      openItems: ['Re-run the nightly job'],
      tags: ['fixtures', 'codex'],
    });
    expect(saved.isError).toBeFalsy();
    expect(saved.structuredContent).toMatchObject({ key: CODEX_KEY, source: 'vault', author: 'mcp: session-vault-test', tags: ['fixtures', 'codex'] });

    expect(await listedKeys({ hasSummary: false })).toEqual(['jido-code:j-1', 'jido-code:j-2']);
    const summarized = (await call('sessions_list', { hasSummary: true })).structuredContent?.sessions as Array<{ key: string; summary: { author: string } }>;
    expect(summarized.map((s) => [s.key, s.summary.author])).toEqual([[CODEX_KEY, 'mcp: session-vault-test']]);

    const search = await call('sessions_search', { query: 'quokkafold' });
    const hits = search.structuredContent?.hits as Array<{ key: string; snippet: string }>;
    expect(hits.map((h) => h.key)).toEqual([CODEX_KEY]);
    expect(hits[0]?.snippet).toContain('**quokkafold**');

    // The command line sees what the server wrote, in another process.
    const cli = await runCli(['summary', CODEX_KEY, '--json', '--root', root, '--no-defaults'], { base });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({
      key: CODEX_KEY,
      summary: { author: 'mcp: session-vault-test', overview: expect.stringContaining('quokkafold') },
    });
  });

  it('compares two sessions and reports usage, as the CLI does', async () => {
    const compared = await call('sessions_compare', { a: 'jido-code:j-1', b: 'jido-code:j-2' });
    expect(compared.isError).toBeFalsy();
    expect(compared.structuredContent).toMatchObject({ a: { key: 'jido-code:j-1' }, b: { key: 'jido-code:j-2' } });
    const diff = await runCli(['diff', 'jido-code:j-1', 'jido-code:j-2', '--json', '--root', root, '--no-defaults'], { base });
    expect(diff.code, diff.stderr).toBe(0);
    // The very comparison `diff --json` prints, but for how long each took.
    expect({ ...compared.structuredContent, elapsedMs: 0 }).toEqual({ ...(JSON.parse(diff.stdout) as Record<string, unknown>), elapsedMs: 0 });
    const usage = await call('usage_report', { period: 'daily', query: 'source:codex', timezone: 'UTC' });
    expect(usage.isError).toBeFalsy();
    expect((usage.structuredContent as { totals: { totalTokens: number } }).totals.totalTokens).toBeGreaterThan(0);
    const cliUsage = await runCli(['usage', 'daily', '--query', 'source:codex', '--timezone', 'UTC', '--json', '--root', root, '--no-defaults'], { base });
    expect(cliUsage.code, cliUsage.stderr).toBe(0);
    expect({ ...usage.structuredContent, tookMs: 0 }).toEqual({ ...(JSON.parse(cliUsage.stdout) as Record<string, unknown>), tookMs: 0 });
  });

  it('pages the list with nextOffset, newest first unless sorted otherwise', async () => {
    type ListPage = { total: number; nextOffset: number | null; sessions: Array<{ key: string }> };
    const page = async (args: Record<string, unknown>) => (await call('sessions_list', args)).structuredContent as ListPage;
    const keys: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const p: ListPage = await page({ limit: 1, offset });
      expect(p.total).toBe(3);
      expect(p.sessions).toHaveLength(1);
      keys.push(...p.sessions.map((s) => s.key));
      offset = p.nextOffset;
    }
    expect(keys).toEqual(['jido-code:j-2', CODEX_KEY, 'jido-code:j-1']);
    expect((await page({ sort: 'tokens', limit: 1 })).sessions.map((s) => s.key)).toEqual([CODEX_KEY]);
    expect((await page({ query: 'source:codex' })).sessions.map((s) => s.key)).toEqual([CODEX_KEY]);
  });

  it("gives a search hit's message index, where session_transcript reads on from", async () => {
    const search = await call('sessions_search', { query: 'heliotrope' });
    const hits = search.structuredContent?.hits as Array<{ key: string; messageIndex: number | null; snippet: string }>;
    expect(hits.map((h) => [h.key, h.messageIndex])).toEqual([['jido-code:j-2', 2]]);
    expect(hits[0]?.snippet).toContain('**heliotrope**');
    const page = (await call('session_transcript', { key: 'jido-code:j-2', fromMessage: hits[0]?.messageIndex })).structuredContent as {
      text: string;
      fromMessage: number;
      next: unknown;
    };
    expect(page.fromMessage).toBe(2);
    expect(page.text.startsWith('### #2 user')).toBe(true);
    expect(page.text).toContain('Why does the heliotrope widget flicker on resize?');
    expect(page.next).toBeNull();
  });

  it('refuses invalid input naming the field, and unknown sessions, without changing anything', async () => {
    const before = await listedKeys({ hasSummary: false });
    const tooSmall = await call('session_transcript', { key: CODEX_KEY, maxChars: 10 });
    expect(tooSmall.isError).toBe(true);
    expect(text(tooSmall)).toContain('maxChars');
    const noOverview = await call('session_update_summary', { key: 'jido-code:j-1', decisions: ['x'] });
    expect(noOverview.isError).toBe(true);
    expect(text(noOverview)).toContain('overview');
    const pathGiven = await call('sessions_list', { path: '/etc' });
    expect(pathGiven.isError).toBe(true);
    expect(text(pathGiven)).toContain('path');
    const unknown = await call('session_transcript', { key: 'claude-code:nope' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe('NOT_FOUND (field "key"): No session with key "claude-code:nope" is known. It may have been deleted.');
    const badZone = await call('usage_report', { period: 'daily', timezone: 'Mars/Base' });
    expect(badZone.isError).toBe(true);
    expect(text(badZone)).toContain('not a time zone (an IANA name such as UTC or Europe/Paris) at timezone');
    expect(text(badZone)).not.toContain('INTERNAL');
    const unknownKey = await call('usage_report', { period: 'daily', path: '/etc' });
    expect(text(unknownKey)).toContain('Unrecognized key: "path"');
    const pastEnd = await call('session_transcript', { key: 'jido-code:j-1', fromMessage: 50 });
    expect(text(pastEnd)).toContain('INVALID_INPUT (field "fromMessage")');
    expect(await listedKeys({ hasSummary: false })).toEqual(before);
  });
});
