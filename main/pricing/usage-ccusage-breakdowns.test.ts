// `session-vault usage` per model, per project, per week and month, in another time zone and between dates agrees with ccusage (run offline).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageApi, type UsageRowOut } from '../../shared/usage-api.ts';
import { ccTokensOf, claudeSamplesRoot, costsAgree, COPY_ID, repo, runCcusage, type CcRow } from '../test-support/ccusage.ts';

const cli = join(repo, 'main/cli/cli.ts');
const run = promisify(execFile);

/** The one model newer than ccusage 19.0.3's bundled prices: ccusage prices it at $0, Session Vault does not. */
const NEWER_MODEL = 'claude-opus-5';

interface CcModel {
  modelName: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  cost: number;
}
type CcBucket = CcRow & { modelBreakdowns: CcModel[] };

const tokensOf = (r: UsageRowOut) => [r.input, r.output, r.cacheRead, r.cacheWrite];

async function ours(root: string, report: string, ...extra: string[]): Promise<UsageRowOut[]> {
  const env = { ...process.env, SESSION_VAULT_HOME: join(root, 'home'), NO_COLOR: '1' };
  const args = [cli, 'usage', report, '--json', '--timezone', 'UTC', '--no-defaults', '--root', join(root, 'projects'), ...extra];
  const { stdout } = await run(process.execPath, args, { env, maxBuffer: 16 << 20 });
  // The JSON is the contract's report, whatever the options (what the MCP tool and the HTTP API answer too).
  const parsed = usageApi.usageReport.output.safeParse(JSON.parse(stdout));
  expect(parsed.error?.issues ?? [], `usage ${report} ${extra.join(' ')} --json is a usage report`).toEqual([]);
  return (JSON.parse(stdout) as { rows: UsageRowOut[] }).rows;
}

/** Our row and ccusage's agree: the same tokens, and the same cost but for the model ccusage cannot price. */
function expectSame(label: string, row: UsageRowOut | undefined, theirs: CcRow, theirCost: number, models: string[]): void {
  expect(row, `Session Vault has ${label}`).toBeDefined();
  if (!row) return;
  expect(tokensOf(row), `tokens of ${label}`).toEqual(ccTokensOf(theirs));
  if (models.includes(NEWER_MODEL)) {
    expect(theirCost, `ccusage leaves ${NEWER_MODEL} unpriced in ${label}`).toBe(0);
    expect(row.costUsd, `Session Vault prices ${NEWER_MODEL} in ${label}`).toBeGreaterThan(0);
  } else {
    expect(costsAgree(row.costUsd, theirCost), `cost of ${label}: ours ${row.costUsd}, ccusage ${theirCost}`).toBe(true);
  }
}

let root: string;

beforeAll(async () => {
  root = await claudeSamplesRoot('sv-usage-breakdowns-');
  // Without the resumed copy (its by-design difference has its own test), every figure here must be ccusage's.
  await rm(join(root, 'projects/-home-user-src-demo', `${COPY_ID}.jsonl`));
  await ours(root, 'daily'); // builds the index once; the reports below read it
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('usage reports agree with ccusage on the Claude Code samples, broken down', () => {
  it('has the same tokens and cost per day and model', async () => {
    const [cc, rows] = await Promise.all([runCcusage(root, 'daily', '--breakdown'), ours(root, 'daily', '--breakdown', 'model')]);
    const days = cc.daily as Array<CcBucket & { date: string }>;
    expect(rows.length).toBe(days.reduce((n, d) => n + d.modelBreakdowns.length, 0));
    for (const d of days) {
      for (const m of d.modelBreakdowns) {
        const row = rows.find((r) => r.period === d.date && r.group === m.modelName);
        expectSame(`${d.date} ${m.modelName}`, row, { ...m, totalCost: m.cost }, m.cost, [m.modelName]);
      }
    }
  });

  it('has the same tokens and cost per local day and project in another time zone', async () => {
    const zone = ['--timezone', 'America/Los_Angeles'];
    const [cc, rows] = await Promise.all([runCcusage(root, 'daily', '--instances', ...zone), ours(root, 'daily', '--breakdown', 'project', ...zone)]);
    const projects = Object.entries(cc.projects as Record<string, Array<CcBucket & { date: string }>>);
    expect(rows.length).toBe(projects.reduce((n, [, days]) => n + days.length, 0));
    // ccusage names a project by its folder (the working directory with "/" as "-"), Session Vault by its last part.
    for (const [folder, days] of projects) {
      for (const d of days) {
        const matches = rows.filter((r) => r.period === d.date && r.group && folder.endsWith(`-${r.group}`));
        expect(matches, `one row for ${folder} on ${d.date}`).toHaveLength(1);
        expectSame(
          `${folder} on ${d.date}`,
          matches[0],
          d,
          d.totalCost,
          d.modelBreakdowns.map((m) => m.modelName),
        );
      }
    }
    // The day the zone moves: a call at 2025-12-16T01:00Z is on the 15th in Los Angeles.
    expect(rows.some((r) => r.period === '2025-12-15')).toBe(true);
  });

  it('has the same weeks as ccusage started on Monday, and months', async () => {
    const [weeks, sundayWeeks, months, weekRows, monthRows] = await Promise.all([
      runCcusage(root, 'weekly', '--start-of-week', 'monday'),
      runCcusage(root, 'weekly'),
      runCcusage(root, 'monthly'),
      ours(root, 'weekly'),
      ours(root, 'monthly'),
    ]);
    const ccWeeks = weeks.weekly as Array<CcBucket & { week: string }>;
    expect(weekRows.map((r) => r.period)).toEqual(ccWeeks.map((w) => w.week));
    for (const w of ccWeeks) {
      expectSame(
        `week of ${w.week}`,
        weekRows.find((r) => r.period === w.week),
        w,
        w.totalCost,
        w.modelBreakdowns.map((m) => m.modelName),
      );
    }
    // By design: Session Vault's weeks start on Monday (ISO 8601); ccusage's start on Sunday unless told otherwise.
    const sundays = (sundayWeeks.weekly as Array<{ week: string }>).map((w) => w.week);
    expect(sundays.every((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 0)).toBe(true);
    expect(weekRows.every((r) => new Date(`${r.period}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    const ccMonths = months.monthly as Array<CcBucket & { month: string }>;
    expect(monthRows.map((r) => r.period)).toEqual(ccMonths.map((m) => m.month));
    for (const m of ccMonths) {
      expectSame(
        `month ${m.month}`,
        monthRows.find((r) => r.period === m.month),
        m,
        m.totalCost,
        m.modelBreakdowns.map((x) => x.modelName),
      );
    }
  });

  it('keeps to the same days between --since and --until', async () => {
    const [cc, rows] = await Promise.all([
      runCcusage(root, 'daily', '--since', '20251001', '--until', '20260312'),
      ours(root, 'daily', '--since', '20251001', '--until', '2026-03-12'),
    ]);
    const days = cc.daily as Array<CcBucket & { date: string }>;
    expect(days.length).toBeGreaterThanOrEqual(3);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.period)).toEqual(days.map((d) => d.date));
    for (const d of days)
      expectSame(
        d.date,
        rows.find((r) => r.period === d.date),
        d,
        d.totalCost,
        d.modelBreakdowns.map((m) => m.modelName),
      );
  });
});

describe('a call whose prompt passes 200k tokens (long context)', () => {
  let longRoot: string;
  const line = (n: number, at: string, usage: Record<string, number>) =>
    JSON.stringify({
      type: 'assistant',
      uuid: `long-${n}`,
      parentUuid: null,
      isSidechain: false,
      requestId: `req_long_${n}`,
      message: { id: `msg_long_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', usage, content: [{ type: 'text', text: 'ok' }] },
      timestamp: at,
      cwd: '/home/user/src/long',
      sessionId: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
      version: '2.1.150',
    });

  beforeAll(async () => {
    longRoot = await mkdtemp(join(tmpdir(), 'sv-usage-long-'));
    const dir = join(longRoot, 'projects/-home-user-src-long');
    await mkdir(dir, { recursive: true });
    const short = { input_tokens: 10, output_tokens: 1000, cache_creation_input_tokens: 20_000, cache_read_input_tokens: 100_000 };
    const long = { input_tokens: 10, output_tokens: 1000, cache_creation_input_tokens: 20_000, cache_read_input_tokens: 230_000 };
    await writeFile(
      join(dir, 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb.jsonl'),
      `${line(1, '2026-03-10T10:00:00.000Z', short)}\n${line(2, '2026-03-11T10:00:00.000Z', long)}\n`,
    );
  }, 60_000);

  afterAll(async () => {
    if (longRoot) await rm(longRoot, { recursive: true, force: true });
  });

  it('is billed whole at the long-context rate, as Anthropic bills it, where ccusage raises only the tokens past 200k', async () => {
    const [cc, rows] = await Promise.all([runCcusage(longRoot, 'daily'), ours(longRoot, 'daily')]);
    const days = cc.daily as Array<CcRow & { date: string }>;
    expect(days.map((d) => d.date)).toEqual(['2026-03-10', '2026-03-11']);
    expect(rows.map((r) => r.period)).toEqual(['2026-03-10', '2026-03-11']);
    days.forEach((d, i) => expect(tokensOf(rows[i] as UsageRowOut)).toEqual(ccTokensOf(d)));
    // A prompt of 120,010 tokens: the base rates ($3 / $15 / $0.30 / $3.75 per million), the same in both.
    const shortCost = (10 * 3 + 1000 * 15 + 100_000 * 0.3 + 20_000 * 3.75) / 1e6;
    expect(rows[0]?.costUsd).toBeCloseTo(shortCost, 12);
    expect(costsAgree(days[0]?.totalCost ?? NaN, shortCost)).toBe(true);
    // A prompt of 250,010 tokens (uncached + cache read + cache write): every token of the call at the long-context
    // rates ($6 / $22.50 / $0.60 / $7.50), Anthropic's rule and the price database's.
    expect(rows[1]?.costUsd).toBeCloseTo((10 * 6 + 1000 * 22.5 + 230_000 * 0.6 + 20_000 * 7.5) / 1e6, 12);
    // By design different: ccusage 19 raises, per kind of token, only the tokens past 200,000 of that kind.
    expect(days[1]?.totalCost).toBeCloseTo((10 * 3 + 1000 * 15 + (200_000 * 0.3 + 30_000 * 0.6) + 20_000 * 3.75) / 1e6, 9);
  });
});
