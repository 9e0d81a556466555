// `session-vault usage daily|weekly|monthly|session|blocks`: tokens and cost per period or 5-hour block from the index, as a table or JSON.
import type { UsageFigures, UsageRowOut } from '../../shared/usage-api.ts';
import { oneOf, USAGE_BREAKDOWNS, USAGE_PERIODS } from '../../shared/contract-values.ts';
import type { MethodOutput } from '../../shared/api.ts';
import { isTimeZone, normalizeDay } from '../search-index/usage-periods.ts';
import { resolve } from 'node:path';
import { resolveDataDir } from '../env/data-dir.ts';
import { fastUsage, type Answer, type Asked } from './usage-fast-path.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeForTerminal, terminalJson } from './terminal-text.ts';
import { UsageError } from './usage-error.ts';
import { costText } from '../search-index/usage-cost-text.ts';
import { formatBlocks } from './usage-blocks-command.ts';
import { changesFound } from './index-current.ts';
import { countText } from './count-text.ts';

export const USAGE_HELP = `Usage: session-vault usage daily|weekly|monthly|session|blocks [options]

Input, output, cache read, cache write and reasoning tokens and cost, for every session the app reads,
added up from the search index (no session file is read again). Each call counts on the day it was
made, so a session that runs past midnight counts on both days; calls with no known time are on no day
(a warning says how many tokens the days leave out; the session report counts them). Weeks start on
Monday. A session's row is its total with its sub-agents ("own" in the JSON is the session alone).

blocks: Claude's 5-hour windows as ccusage counts them (Claude Code sessions unless --query names a
source): each from the hour of its first call; the active one with its burn rate and where it ends
at that rate. Then the latest rate limits a tool recorded (Codex: 5-hour and weekly windows).

Options:
  --since DAY         from this day on (2026-01-31 or 20260131)
  --until DAY         up to and including this day
  --breakdown KEY     one row per ${USAGE_BREAKDOWNS.join(', ')} within each period
  --query "<query>"   only the sessions a search query matches (session-vault help search)
  --timezone ZONE     count days in this IANA time zone (default: this machine's)
  --json              print the report as JSON
  --root DIR          also read sessions below DIR (repeatable; not saved)
  --no-defaults       skip the tools' default folders
  -h, --help          show this help

A cost with unpriced calls (a model without a known price) is a lower bound: "≥ $1.20, 3 unpriced".
`;

type Report = MethodOutput<'usageReport'>;

export { costText };

function cells(label: string, f: UsageFigures, extra: string[]): string[] {
  return [
    label,
    ...extra,
    countText(f.input),
    countText(f.output),
    countText(f.cacheRead),
    countText(f.cacheWrite),
    countText(f.reasoning),
    countText(f.totalTokens),
    costText(f),
  ];
}

export function formatUsage(report: Report, breakdown: boolean): string {
  if (!report.rows.length) return 'No usage in these sessions and days.\n';
  const first = report.period === 'session' ? 'Session' : report.period === 'weekly' ? 'Week of' : report.period === 'monthly' ? 'Month' : 'Day';
  const extraHead = [...(report.period === 'session' ? ['Last day'] : []), ...(breakdown ? ['Group'] : []), 'Models'];
  const head = [first, ...extraHead, 'Input', 'Output', 'Cache read', 'Cache write', 'Reasoning', 'Total', 'Cost'];
  const extra = (r: UsageRowOut) => [
    ...(report.period === 'session' ? [r.lastDay ?? ''] : []),
    ...(breakdown ? [r.group ?? '(none)'] : []),
    r.models.join(', '),
  ];
  const body = report.rows.map((r) =>
    cells(
      sanitizeForTerminal(r.period),
      r,
      extra(r).map((c) => sanitizeForTerminal(c)),
    ),
  );
  const total = cells(
    'Total',
    report.totals,
    extraHead.map(() => ''),
  );
  const rows = [head, ...body, total];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const numeric = (i: number) => i > extraHead.length;
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const sessions = `${countText(report.totals.sessions)} session${report.totals.sessions === 1 ? '' : 's'} (days in ${report.timezone})`;
  return `${[line(head), rule, ...body.map(line), rule, line(total)].join('\n')}\n${sessions}\n`;
}

function day(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const d = normalizeDay(value);
  if (!d) throw new UsageError(`--${name} must be a day such as 2026-01-31`);
  return d;
}

export async function runUsage(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      since: { type: 'string' },
      until: { type: 'string' },
      breakdown: { type: 'string' },
      query: { type: 'string' },
      timezone: { type: 'string' },
      json: { type: 'boolean' },
      root: { type: 'string', multiple: true },
      'no-defaults': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE_HELP,
  );
  if (values.help) {
    process.stdout.write(USAGE_HELP);
    return;
  }
  const blocks = positionals[0] === 'blocks';
  const period = oneOf(USAGE_PERIODS, positionals[0]);
  if ((!period && !blocks) || positionals.length > 1) throw new UsageError(`give one report: ${[...USAGE_PERIODS, 'blocks'].join(', ')}\n\n${USAGE_HELP}`);
  const breakdown = values.breakdown === undefined ? undefined : oneOf(USAGE_BREAKDOWNS, values.breakdown.toLowerCase());
  if (values.breakdown !== undefined && !breakdown) throw new UsageError(`--breakdown must be one of ${USAGE_BREAKDOWNS.join(', ')}`);
  if (values.timezone !== undefined && !isTimeZone(values.timezone))
    throw new UsageError(`--timezone: "${values.timezone}" is not a time zone (e.g. UTC, Europe/Paris)`);
  const since = day('since', values.since);
  const until = day('until', values.until);
  const asked = {
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
    ...(breakdown ? { breakdown } : {}),
    ...(values.query ? { query: values.query } : {}),
    ...(values.timezone ? { timezone: values.timezone } : {}),
  };
  const print = (report: Answer) => {
    for (const problem of report.problems) process.stderr.write(`warning: ${sanitizeForTerminal(problem)}\n`);
    if (values.json) process.stdout.write(`${terminalJson(report)}\n`);
    else process.stdout.write('period' in report ? formatUsage(report, breakdown !== undefined) : formatBlocks(report));
  };
  const dataDir = resolveDataDir(env);
  const extraRoots = (values.root ?? []).map((r) => resolve(r));
  const noDefaults = values['no-defaults'] === true;
  const question: Asked = period ? { report: 'period', input: { period, ...asked } } : { report: 'blocks', input: asked };
  // Nothing changed below the roots since the last full run: the index answers as it is (no services, no scan).
  const fast = await fastUsage(dataDir, { roots: extraRoots, noDefaults }, env, question);
  if (fast) return print(fast);
  const startedAt = Date.now();
  const { withOneShotServices } = await import('./one-shot.ts');
  // The check above found what changed since the last run: the scan reads that instead of walking every root.
  const found = changesFound(dataDir);
  const run = await withOneShotServices({ roots: values.root, noDefaults, found }, env, async (services) => {
    print(question.report === 'period' ? await services.client.usageReport(question.input) : await services.client.usageBlocks(question.input));
    return { roots: await services.client.listRoots(), problems: services.startupProblems() };
  });
  // What the scan saw, for the next run's fast path (not kept when something changed while this one ran).
  // Loaded only here: writing the snapshot loads node:crypto (~18 ms), which the fast path does without.
  const { recordScan } = await import('./scan-snapshot.ts');
  await recordScan(dataDir, { extraRoots, noDefaults, env, startedAt, found, ...run });
}
