// `session-vault usage daily|weekly|monthly|session`: tokens and cost per period from the index, as a table or JSON.
import { UsageBreakdown, UsagePeriod, type UsageFigures, type UsageRowOut } from '../../shared/usage-api.ts';
import type { MethodOutput } from '../../shared/api.ts';
import { isTimeZone, normalizeDay } from '../search-index/usage-periods.ts';
import { withOneShotServices } from './one-shot.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { sanitizeForTerminal, terminalJson } from './terminal-text.ts';
import { UsageError } from './usage-error.ts';

export const USAGE_HELP = `Usage: session-vault usage daily|weekly|monthly|session [options]

Input, output, cache read, cache write and reasoning tokens and cost, for every session the app reads,
added up from the search index (no session file is read again). Each call counts on the day it was
made, so a session that runs past midnight counts on both days. Weeks start on Monday.

Options:
  --since DAY         from this day on (2026-01-31 or 20260131)
  --until DAY         up to and including this day
  --breakdown KEY     one row per ${UsageBreakdown.options.join(', ')} within each period
  --query "<query>"   only the sessions a search query matches (session-vault help search)
  --timezone ZONE     count days in this IANA time zone (default: this machine's)
  --json              print the report as JSON
  --root DIR          also read sessions below DIR (repeatable; not saved)
  --no-defaults       skip the tools' default folders
  -h, --help          show this help

A cost with unpriced calls (a model without a known price) is a lower bound: "≥ $1.20, 3 unpriced".
`;

type Report = MethodOutput<'usageReport'>;

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** The cost as a user should read it: exact, or a lower bound that says how many calls it leaves out. */
export function costText(f: Pick<UsageFigures, 'costUsd' | 'unpricedCalls'>): string {
  const usd = `$${f.costUsd.toFixed(f.costUsd !== 0 && Math.abs(f.costUsd) < 1 ? 4 : 2)}`;
  return f.unpricedCalls ? `≥ ${usd}, ${count(f.unpricedCalls)} unpriced` : usd;
}

function cells(label: string, f: UsageFigures, extra: string[]): string[] {
  return [label, ...extra, count(f.input), count(f.output), count(f.cacheRead), count(f.cacheWrite), count(f.reasoning), count(f.totalTokens), costText(f)];
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
  const sessions = `${count(report.totals.sessions)} session${report.totals.sessions === 1 ? '' : 's'} (days in ${report.timezone})`;
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
  const period = UsagePeriod.safeParse(positionals[0]).data;
  if (!period || positionals.length > 1) throw new UsageError(`give one report: ${UsagePeriod.options.join(', ')}\n\n${USAGE_HELP}`);
  const breakdown = values.breakdown === undefined ? undefined : UsageBreakdown.safeParse(values.breakdown.toLowerCase()).data;
  if (values.breakdown !== undefined && !breakdown) throw new UsageError(`--breakdown must be one of ${UsageBreakdown.options.join(', ')}`);
  if (values.timezone !== undefined && !isTimeZone(values.timezone))
    throw new UsageError(`--timezone: "${values.timezone}" is not a time zone (e.g. UTC, Europe/Paris)`);
  const since = day('since', values.since);
  const until = day('until', values.until);
  await withOneShotServices({ roots: values.root, noDefaults: values['no-defaults'] }, env, async (services) => {
    const report = await services.client.usageReport({
      period,
      ...(since ? { since } : {}),
      ...(until ? { until } : {}),
      ...(breakdown ? { breakdown } : {}),
      ...(values.query ? { query: values.query } : {}),
      ...(values.timezone ? { timezone: values.timezone } : {}),
    });
    for (const problem of report.problems) process.stderr.write(`warning: ${sanitizeForTerminal(problem)}\n`);
    process.stdout.write(values.json ? `${terminalJson(report)}\n` : formatUsage(report, breakdown !== undefined));
  });
}
