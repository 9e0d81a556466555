// Tests for the aider reader: runs and their ids, user/assistant/tool lines, usage and cost lines, kept copies, status and paths.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readers } from '../registry.ts';
import { failure, valid } from '../../test-support/reader-checks.ts';
import { aiderReader, listAiderRuns, readAiderFile, readAiderRun } from './aider.ts';
import { localTime, runIds, runPart, splitRuns } from './aider-runs.ts';
import { parseUsageLine, readRunTurns } from './aider-turns.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sv-aider-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function history(name: string, text: string): string {
  mkdirSync(join(dir, name), { recursive: true });
  const path = join(dir, name, '.aider.chat.history.md');
  writeFileSync(path, text);
  return path;
}

const REAL_RUN = [
  '',
  '# aider chat started at 2026-02-01 09:15:42',
  '',
  '> /usr/local/bin/aider --model sonnet  ',
  '> Aider v0.86.1  ',
  '> Main model: anthropic/claude-sonnet-4-20250514 with diff edit format, infinite output  ',
  '> Git repo: .git with 42 files  ',
  '',
  '#### add a health endpoint  ',
  '',
  'I will add `/health`.',
  '',
  '#### Changes',
  '',
  'app.py',
  '',
  '> Tokens: 2.4k sent, 1.2k cache write, 3k cache hit, 178 received. Cost: $0.0123 message, $0.0123 session.  ',
  '> Applied edit to app.py  ',
  '',
  '#### /ask does it need tests?  ',
  '',
  'Yes, one.',
  '',
  '> Tokens: 900 sent, 40 received. Cost: $0.0030 message, $0.0153 session.  ',
  '',
  '#### <blank>',
  '',
].join('\r\n');

describe('aider runs', () => {
  it('reads a real run: start-up lines, prompts, answers with their own headings, usage lines, edits', () => {
    const { runs } = splitRuns(REAL_RUN);
    const facts = readRunTurns(runs[0]!.lines, '');
    expect(facts.messages.map((m) => [m.role, m.parts[0]?.type === 'text' ? m.parts[0].text.split('\n')[0] : ''])).toEqual([
      ['tool', '/usr/local/bin/aider --model sonnet'],
      ['user', 'add a health endpoint'],
      ['assistant', 'I will add `/health`.'],
      ['tool', 'Tokens: 2.4k sent, 1.2k cache write, 3k cache hit, 178 received. Cost: $0.0123 message, $0.0123 session.'],
      ['user', '/ask does it need tests?'],
      ['assistant', 'Yes, one.'],
      ['tool', 'Tokens: 900 sent, 40 received. Cost: $0.0030 message, $0.0153 session.'],
    ]);
    // The answer keeps its own "#### Changes" heading: aider writes its output between an answer and the next prompt.
    expect(facts.messages[2]!.parts[0]).toEqual({ type: 'text', text: 'I will add `/health`.\n\n#### Changes\n\napp.py' });
    expect([facts.model, facts.version, facts.gitRepo, facts.edited, facts.blankInputs]).toEqual([
      'anthropic/claude-sonnet-4-20250514',
      '0.86.1',
      '.git with 42 files',
      ['app.py'],
      1,
    ]);
    expect(facts.messages[2]).toMatchObject({
      model: 'anthropic/claude-sonnet-4-20250514',
      usage: { input: 1200, output: 178, cacheRead: 3000, cacheWrite: 1200, reasoning: 0 },
      cost: { usd: 0.0123, estimated: false },
    });
    expect(facts.messages[5]).toMatchObject({
      usage: { input: 900, output: 40, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      cost: { usd: 0.003, estimated: false },
    });
    expect(facts.usage).toEqual({ input: 2100, output: 218, cacheRead: 3000, cacheWrite: 1200, reasoning: 0 });
    expect(facts.sessionCostUsd).toBe(0.0153);
  });

  it('parses usage lines without cost, and ignores lines that only look alike', () => {
    expect(parseUsageLine('Tokens: 12k sent, 345 received.')).toEqual({
      usage: { input: 12000, output: 345, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      messageCost: null,
      sessionCost: null,
    });
    expect(parseUsageLine('Tokens are expensive')).toBeNull();
  });

  it('gives runs ids that survive appends, number same-second runs, and read headers as local time', () => {
    const two = splitRuns(
      '# aider chat started at 2026-02-01 09:15:42\n#### a\n# aider chat started at 2026-02-01 09:15:42\n#### b\n# aider chat started at soon\n#### c\n',
    );
    const ids = runIds('/r/.aider.chat.history.md', two.runs);
    expect(ids.map(runPart)).toEqual(['20260201T091542', '20260201T091542~2', expect.stringMatching(/^h[0-9a-f]{8}$/) as string]);
    expect(runIds('/r/.aider.chat.history.md', splitRuns('# aider chat started at 2026-02-01 09:15:42\n#### a\n').runs)[0]).toBe(ids[0]);
    expect(localTime('2026-02-01 09:15:42')).toBe(new Date(2026, 1, 1, 9, 15, 42).toISOString());
    expect(localTime('2026-02-30 09:15:42')).toBeNull();
  });
});

describe('aider files', () => {
  it('reads a file of one run whole, with the cost aider printed for the session', async () => {
    const path = history('one', REAL_RUN);
    const s = valid(await readAiderFile(path, Date.parse('2027-01-01T00:00:00Z')));
    expect([s.title, s.model?.name, s.toolVersion]).toEqual(['add a health endpoint', 'anthropic/claude-sonnet-4-20250514', '0.86.1']);
    expect(s.cost).toEqual({ usd: 0.0153, estimated: false });
    expect(s.extra).toMatchObject({ gitRepo: '.git with 42 files', blankInputs: 1 });
    expect(s.status).toBe('closed');
  });

  it('finds a run of a kept copy elsewhere by its start time, and lists a changed run with a new version', async () => {
    const path = history('copy', '# aider chat started at 2026-03-01 10:00:00\n#### first\nok\n# aider chat started at 2026-03-01 11:00:00\n#### second\nok\n');
    const [a, b] = await listAiderRuns(path);
    const copy = join(dir, 'vault-copy.aider.chat.history.md');
    copyFileSync(path, copy);
    expect(valid(await readAiderRun(copy, b!.id)).title).toBe('second');
    writeFileSync(
      path,
      '# aider chat started at 2026-03-01 10:00:00\n#### first\nok\n# aider chat started at 2026-03-01 11:00:00\n#### second\nok, and more\n',
    );
    const after = await listAiderRuns(path);
    expect(after.map((r) => r.id)).toEqual([a!.id, b!.id]);
    expect([after[0]!.version === a!.version, after[1]!.version === b!.version]).toEqual([true, false]);
    expect((await failure(() => readAiderRun(path, 'ffffffff-20990101T000000'))).code).toBe('wrong_shape');
  });

  it('is active only in the last run, while the file is written and the run started within a day', async () => {
    const now = Date.now();
    const start = new Date(now - 3600_000);
    const stamp = `${start.getFullYear()}-${String(start.getMonth() + 1).padStart(2, '0')}-${String(start.getDate()).padStart(2, '0')} ${String(start.getHours()).padStart(2, '0')}:${String(start.getMinutes()).padStart(2, '0')}:00`;
    const path = history('live', `# aider chat started at 2020-01-01 10:00:00\n#### old\nok\n# aider chat started at ${stamp}\n#### new\n`);
    const [old, live] = await listAiderRuns(path);
    expect(valid(await readAiderRun(path, live!.id, now)).status).toBe('active');
    expect(valid(await readAiderRun(path, old!.id, now)).status).toBe('closed');
  });

  it('refuses files with nothing to read, saying why', async () => {
    expect((await failure(() => readAiderFile(history('empty', '')))).code).toBe('empty_file');
    expect((await failure(() => readAiderFile(history('notes', '# My notes\nnothing here\n')))).code).toBe('wrong_shape');
    expect((await failure(() => readAiderFile(history('headers', '# aider chat started at 2026-03-01 10:00:00\n\n')))).message).toMatch(/only run headers/);
  });
});

describe('aider paths', () => {
  it("claims the history file anywhere, and nothing else of the repository (ProjectHub's Markdown rule included)", () => {
    expect(aiderReader.claims('/home/u/src/app/.aider.chat.history.md')).toBe(true);
    expect(readers.filter((r) => r.claims('/home/u/src/app/.aider.input.history')).map((r) => r.format)).toEqual([]);
    expect(readers.filter((r) => r.claims('/home/u/src/app/vault/sessions/.aider.chat.history.md')).map((r) => r.format)).toEqual(['aider']);
    expect(aiderReader.claims('/home/u/src/app/.aider.chat.history.md.tmp')).toBe(false);
  });

  it('has no default folder (the user adds repositories) and no resume by id', () => {
    expect(aiderReader.defaultRoots({}, '/home/u')).toEqual([]);
    expect(aiderReader.resumeCommand({ id: 'x', isSubAgent: false })).toBeNull();
  });
});
