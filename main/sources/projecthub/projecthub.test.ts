// Tests for the ProjectHub reader: claims, the three merged views of a session, the shared samples, damaged companions.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { countToolCalls } from '../../../shared/summarize.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { WarningList } from '../coerce.ts';
import { claimsProjectHub, parseProjectHub, projectHubReader, readProjectHubFile, type ProjectHubContext } from './projecthub.ts';
import { parseVaultMarkdown } from './projecthub-markdown.ts';
import { UnreadableError } from '../types.ts';
import { valid } from '../../test-support/reader-checks.ts';

const vault = fileURLToPath(new URL('./fixtures/tide-tables/vault', import.meta.url));
const CLOSED = '4f6a8b2c-1d3e-4a5b-9c7d-2e4f6a8b0c1d';
const COMPACTED = '7b9d1f3a-5c6e-4d8f-a0b2-c4d6e8f0a2b4';
const DAY = 24 * 3600_000;

/** Reads a day after the file changed, so "active" vs "open" never depends on when the test runs. */
async function read(path: string): Promise<Session> {
  const session = await readProjectHubFile(path, statSync(path).mtimeMs + DAY);
  return valid(session);
}

function fromText(text: string, over: Partial<ProjectHubContext> = {}): Session {
  const warnings = new WarningList();
  const md = parseVaultMarkdown(text, warnings);
  return parseProjectHub(md, {
    path: '/p/vault/sessions/2026-01-02_s1.md',
    size: 1,
    mtimeMs: 0,
    now: DAY,
    warnings: warnings.list(),
    index: null,
    transcript: null,
    ...over,
  });
}

const front = (status: string, turns = 1) =>
  `---\nsession_id: "s1"\nproject_dir: "/p"\nstarted_at: 1767312000000\nlast_saved_at: 1767312060000\nturn_count: ${turns}\nstatus: ${status}\n---\n\n# Session: s1\n`;

describe('claimsProjectHub', () => {
  it.each(['/home/u/app/vault/sessions/2026-02-20_12a5d376-45bb-43ce-9bba-312d0c77217c.md', '/home/u/app/vault/sessions/2026-02-20_session-1771572843558.md'])(
    'claims %s',
    (p) => expect(claimsProjectHub(p)).toBe(true),
  );

  it.each([
    '/home/u/app/vault/sessions/README.md',
    '/home/u/app/vault/sessions/2026-02-20_x.md.tmp',
    '/home/u/app/vault/code-notes/2026-02-20_x.md',
    '/home/u/app/notes/sessions/2026-02-20_x.md',
    '/home/u/app/vault/.projecthub/transcripts/12a5d376.jsonl',
    '/home/u/app/vault/.projecthub/index.db',
  ])('does not claim %s', (p) => expect(claimsProjectHub(p)).toBe(false));
});

describe('ProjectHub fixtures', () => {
  it('merges the Markdown file, its Claude Code transcript and its index row', async () => {
    const path = join(vault, `sessions/2026-03-04_${CLOSED}.md`);
    const s = await read(path);
    expect([s.key, s.id, s.format, s.status]).toEqual([`projecthub:${CLOSED}`, CLOSED, 'projecthub', 'closed']);
    expect(s.title).toBe('High-water times are an hour off after the DST switch. Find out why.');
    expect([s.createdAt, s.updatedAt, s.closedAt]).toEqual(['2026-03-04T16:20:01.000Z', '2026-03-04T16:21:30.400Z', '2026-03-04T16:21:30.400Z']);
    expect(s.project).toEqual({ path: '/home/dev/proj/tide-tables', name: 'tide-tables', branch: 'fix/dst-offsets', headCommit: null });
    expect(s.messages.map((m) => m.role).join(' ')).toBe('user assistant tool assistant user assistant tool assistant');
    expect(countToolCalls(s)).toBe(2);
    expect(s.usage).toEqual({ input: 9600, output: 314, cacheRead: 42300, cacheWrite: 14300, reasoning: 0 });
    expect(s.cost?.usd).toBeCloseTo(0.099825, 9);
    expect(s.model?.name).toBe('claude-sonnet-4-5-20250929');
    expect(s.summary).toEqual({
      overview: "Tide predictions were an hour off after DST because offsets were fixed per station; they now come from each station's IANA time zone.",
      decisions: ['Derive offsets from the IANA zone in stations.json'],
      outcomes: ['src/predict.ts uses zoneOffsetMs(station.timeZone, at)'],
      openItems: ['Drop the unused utcOffset field from stations.json'],
      tags: ['tides', 'dst', 'timezones'],
    });
    expect(s.extra).toEqual({
      status: 'closed',
      turnCount: 2,
      estimatedTokens: 1840,
      rollingSummary: expect.stringMatching(/^\*\*User\*\*: High-water times .*so DST is applied\.$/s),
      decisions: ['Derive offsets from the IANA zone in stations.json'],
      searchFootprint: ['utcOffset', 'stations.json time zone'],
      claudeCodeVersion: '2.1.47',
    });
    const transcript = join(vault, `.projecthub/transcripts/${CLOSED}.jsonl`);
    const index = join(vault, '.projecthub/index.db');
    expect(s.sourceFiles.map((f) => [f.path, f.role, f.size])).toEqual([
      [path, 'primary', statSync(path).size],
      [transcript, 'transcript', statSync(transcript).size],
      [index, 'index', statSync(index).size],
    ]);
    expect(s.messages[1]?.origin).toEqual({ fileIndex: 0, line: 3, pointer: null });
    expect(s.warnings).toEqual([]);
  });

  it('reads a compacted session that has no transcript, titled by the rolling summary', async () => {
    const s = await read(join(vault, `sessions/2026-03-05_${COMPACTED}.md`));
    expect([s.status, s.title, s.messages, s.usage, s.summary]).toEqual(['compacted', 'Write a plan for the harmonic constituents import:', [], null, null]);
    expect(s.extra).toMatchObject({ turnCount: 1, estimatedTokens: 310, decisions: [], searchFootprint: [] });
    expect(String(s.extra.rollingSummary)).toContain('## Decisions\n\n- keep raw CSVs under data/noaa');
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'index']);
    expect(s.warnings).toEqual([]);
  });

  it('is the reader registered as projecthub', () => {
    expect(projectHubReader.format).toBe('projecthub');
  });
});

describe('parseProjectHub', () => {
  it('shows "active" only while the file still changes; otherwise the session is open', () => {
    expect(fromText(front('active'), { mtimeMs: 0, now: 60_000 }).status).toBe('active');
    expect(fromText(front('active'), { mtimeMs: 0, now: 11 * 60_000 }).status).toBe('open');
    // A file copied today (fresh mtime) whose own save time is a year old is not running.
    const saved = 1767312060000;
    expect(fromText(front('active'), { mtimeMs: saved + 365 * DAY, now: saved + 365 * DAY + 60_000 }).status).toBe('open');
    expect(fromText(front('active'), { mtimeMs: saved, now: saved + 60_000 }).status).toBe('active');
    expect(fromText(front('paused')).status).toBe('unknown');
    expect(fromText(front('paused')).warnings).toEqual([{ code: 'unknown_status', message: 'Status "paused" is not active, compacted or closed.', count: 1 }]);
  });

  it('names every value on which the Markdown file and index.db disagree, keeping the Markdown value', () => {
    const row = {
      projectDir: '/p',
      startedAt: 1767312000000,
      lastSavedAt: 1767312999000,
      turnCount: 4,
      estimatedTokens: 0,
      rollingSummary: null,
      decisions: null,
      searchFootprint: null,
      summary: null,
      status: 'closed',
    };
    const s = fromText(front('active', 3), { index: { row, file: { path: '/p/vault/.projecthub/index.db', size: 1, mtimeMs: 0, role: 'index' } } });
    expect(s.warnings.map((w) => w.message)).toEqual([
      'The Markdown file and index.db disagree on last_saved_at (1767312060000 vs 1767312999000); the Markdown value is shown.',
      'The Markdown file and index.db disagree on turn_count (3 vs 4); the Markdown value is shown.',
      'The Markdown file and index.db disagree on status ("active" vs "closed"); the Markdown value is shown.',
    ]);
    expect([s.updatedAt, s.extra.turnCount, s.status]).toEqual(['2026-01-02T00:01:00.000Z', 3, 'open']);
  });

  it('warns when the transcript holds a different number of prompts than turn_count', () => {
    const records = [{ value: { type: 'user', uuid: 'u1', message: { role: 'user', content: 'only one prompt' } }, line: 1 }];
    const s = fromText(front('closed', 2), { transcript: { records, file: { path: '/t.jsonl', size: 1, mtimeMs: 0, role: 'transcript' } } });
    expect(s.warnings).toEqual([{ code: 'sources_disagree', message: 'The transcript holds 1 prompts but turn_count says 2.', count: 1 }]);
    expect(s.title).toBe('only one prompt');
  });

  it('reports front matter numbers of the wrong kind and a file name that names another session', () => {
    const s = fromText('---\nsession_id: "s9"\nstarted_at: soon\n---\n', { path: '/p/vault/sessions/2026-01-02_s1.md' });
    expect(s.warnings.map((w) => w.code)).toEqual(['sources_disagree', 'wrong_type']);
    expect([s.id, s.createdAt, s.title]).toEqual(['s9', null, 'ProjectHub session s9']);
  });

  it('refuses a Markdown file that is not a session', () => {
    const run = () => fromText('# Notes\n\nnothing here\n');
    expect(run).toThrow(UnreadableError);
    expect(run).toThrow('Not a ProjectHub session: the file has neither front matter ("---" block) nor a "# Session:" heading.');
  });
});

describe('ProjectHub companions that cannot be used', () => {
  const root = mkdtempSync(join(tmpdir(), 'projecthub-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function vaultWith(name: string, files: Record<string, string>): string {
    const dir = join(root, name, 'vault');
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    return join(dir, 'sessions/2026-01-02_s1.md');
  }

  it('keeps the session when the transcript is empty and index.db is not a database', async () => {
    const path = vaultWith('broken', {
      'sessions/2026-01-02_s1.md': front('closed'),
      '.projecthub/transcripts/s1.jsonl': '',
      '.projecthub/index.db': 'not sqlite',
    });
    const s = await read(path);
    expect(s.warnings.map((w) => w.code)).toEqual(['index_unreadable', 'transcript_unreadable']);
    expect(s.warnings[1]?.message).toBe('The transcript s1.jsonl cannot be read: File is empty (0 bytes).');
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'index']);
  });

  it('says when index.db has no row for the session', async () => {
    const path = vaultWith('norow', { 'sessions/2026-01-02_s1.md': front('closed') });
    mkdirSync(join(root, 'norow/vault/.projecthub'));
    copyFileSync(join(vault, '.projecthub/index.db'), join(root, 'norow/vault/.projecthub/index.db'));
    expect((await read(path)).warnings.map((w) => w.code)).toEqual(['index_missing_row']);
  });

  it('never looks for a transcript named by an id that leaves the transcripts folder', async () => {
    const path = vaultWith('escape', {
      'sessions/2026-01-02_s1.md': '---\nsession_id: "../../../secret"\n---\n',
      'secret.jsonl': '{"type":"user","message":{"content":"x"}}\n',
    });
    const s = await read(path);
    expect([s.id, s.messages, s.sourceFiles.length]).toEqual(['../../../secret', [], 1]);
  });

  it('lists an empty file as unreadable', async () => {
    const path = vaultWith('empty', { 'sessions/2026-01-02_s1.md': '' });
    await expect(readProjectHubFile(path)).rejects.toMatchObject({ code: 'empty_file', message: 'File is empty (0 bytes).' });
  });
});

describe('shared ProjectHub samples', () => {
  const sessions = join(samplesDir, 'projecthub/vault/sessions');
  const sample = (name: string) => read(join(sessions, name));

  it('reads the real Windows file whose double-quoted project_dir is invalid YAML', async () => {
    const s = await sample('2026-02-20_12a5d376-45bb-43ce-9bba-312d0c77217c.md');
    expect(s.project).toEqual({ path: 'D:\\workspace\\claude\\RepoMemory', name: 'RepoMemory', branch: null, headCommit: null });
    expect(s.warnings.map((w) => w.code)).toEqual(['invalid_yaml']);
    expect([s.title, s.status, s.createdAt, s.updatedAt, s.messages.length]).toEqual([
      'Implement the following plan:',
      'open',
      '2026-02-20T07:48:15.158Z',
      '2026-02-20T08:02:32.396Z',
      0,
    ]);
    expect(s.extra.searchFootprint).toHaveLength(10);
    expect(String(s.extra.rollingSummary)).toHaveLength(2003);
    expect(s.extra).toMatchObject({ status: 'active', turnCount: 3, decisions: [] });
  });

  it('reads the real empty session with a non-UUID id', async () => {
    const s = await sample('2026-02-20_session-1771572843558.md');
    expect([s.key, s.title, s.project.path, s.createdAt, s.status, s.warnings]).toEqual([
      'projecthub:session-1771572843558',
      'ProjectHub session session-1771572843558',
      'D:/workspace/claude/RepoMemory',
      '2026-02-20T07:34:03.570Z',
      'open',
      [],
    ]);
    expect(s.extra).toEqual({ status: 'active', turnCount: 0, estimatedTokens: 0, decisions: [], searchFootprint: [] });
  });

  it.each([
    [
      '2026-02-23_8c3e5f71-2a4b-4d6e-9f80-1b2c3d4e5f60.md',
      'open',
      'Webhook deliveries are not retried after a 503. Add exponential backoff with ji…',
      8,
      3,
      [5725, 635, 84500, 0],
      false,
    ],
    [
      '2026-02-24_2d7a9c4e-6b1f-4e3a-8d5c-7f9e0a1b2c3d.md',
      'compacted',
      'Design idempotency keys for POST /charges. Keys must survive a process restart.',
      11,
      5,
      [5799, 657, 85500, 0],
      true,
    ],
    [
      '2026-02-25_f41b8e2c-9d07-4a6b-b3e5-0c1d2e3f4a5b.md',
      'closed',
      'Which services are in PCI scope after the tokenisation change?',
      4,
      1,
      [2622, 246, 39000, 0],
      false,
    ],
  ] as const)('merges %s with its transcript and index row', async (name, status, title, messages, toolCalls, tokens, hasSummary) => {
    const s = await sample(name);
    expect([s.status, s.title, s.messages.length, countToolCalls(s)]).toEqual([status, title, messages, toolCalls]);
    expect(s.usage ? [s.usage.input, s.usage.output, s.usage.cacheRead, s.usage.cacheWrite] : null).toEqual([...tokens]);
    expect(s.project).toEqual({ path: '/home/dev/proj/payments-gateway', name: 'payments-gateway', branch: 'main', headCommit: null });
    expect(s.model?.name).toBe('claude-opus-4-6');
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary', 'transcript', 'index']);
    expect(s.summary !== null).toBe(hasSummary);
    expect(s.warnings).toEqual([]);
  });

  it('takes the structured summary from index.db, matching the Summary section of the Markdown', async () => {
    const s = await sample('2026-02-24_2d7a9c4e-6b1f-4e3a-8d5c-7f9e0a1b2c3d.md');
    expect(s.summary?.openItems).toEqual(['Add a nightly job to purge keys older than 24h', 'Document the Idempotency-Key header in the public API guide']);
    expect(s.summary?.tags).toEqual(['payments', 'idempotency', 'postgres', 'middleware']);
    expect([s.createdAt, s.updatedAt]).toEqual(['2026-02-24T10:00:03.000Z', '2026-02-24T10:01:55.700Z']);
    expect(s.extra).toMatchObject({
      decisions: ['Use Postgres for idempotency keys', 'Replay stored response body'],
      searchFootprint: ['charges table schema', 'idempotency middleware express'],
    });
  });
});
