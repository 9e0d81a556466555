// `npm run bench`: runs the benchmarks and prints figures with ratios against baselines measured in the same run.
import { availableParallelism, cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { benchLargeFiles, printLargeFiles } from './large-files.ts';
import { benchLargeRestart, printLargeRestart } from './large-restart.ts';
import { benchSearch, printSearch } from './search.ts';
import { benchCompare, printCompare } from './compare.ts';
import { benchBundle, printBundle } from './bundle.ts';
import { benchRedaction, printRedaction } from './redaction.ts';
import { measureRenderer, printRendererSize } from './renderer-size.ts';
import { benchUsage, printUsage } from './usage.ts';
import { benchDashboard, printDashboard } from './usage-dashboard.ts';
import { benchOpenCode, printOpenCode } from './opencode.ts';
import { builtFile } from './built.ts';
import { benchTeam, printTeam } from './team.ts';
import { benchTeamScale, printTeamScale } from './team-search-scale.ts';
import { benchRecognition, printRecognition } from './recognition.ts';
import { benchCliStartup, printCliStartup } from './cli-startup.ts';
import { benchFirstPaint, printFirstPaint } from './first-paint.ts';
import { benchFirstPaintIndexed } from './first-paint-index.ts';
import { benchListPages, printListPages } from './list-pages.ts';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    only: { type: 'string' },
    sessions: { type: 'string' },
    runs: { type: 'string' },
    'no-rg': { type: 'boolean' },
    'bundle-mb': { type: 'string' },
    'restart-mb': { type: 'string' },
    'corpus-mb': { type: 'string' },
    'corpus-dir': { type: 'string' },
    'opencode-sessions': { type: 'string' },
  },
  strict: true,
});
const wanted = (name: string) => !values.only || values.only.split(',').includes(name);

console.log(
  `Session Vault benchmarks — node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'}), ${Math.round(totalmem() / 1024 ** 3)} GiB`,
);
// Worker threads start the app's built entry, as the app does (`npm run bench` builds first): started from the
// sources, each worker would compile Node's TypeScript stripper and strip every module again (~100 ms a start).
const builtWorker = builtFile('main/read-worker.js');
if (!process.env.SESSION_VAULT_WORKER_FILE && existsSync(builtWorker)) {
  process.env.SESSION_VAULT_WORKER_FILE = builtWorker;
  console.log(`Worker threads: ${builtWorker}, built ${statSync(builtWorker).mtime.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
} else if (!process.env.SESSION_VAULT_WORKER_FILE) console.log('Worker threads: from the sources (no build in out/; npm run bench builds one)');
if (wanted('large')) printLargeFiles(await benchLargeFiles());
// A 200 MB transcript's first window after a restart, through its page table and read whole (--restart-mb to change it).
if (wanted('restart')) printLargeRestart(await benchLargeRestart(Math.max(1, Number(values.runs ?? 3)), Number(values['restart-mb'] ?? 200)));
if (wanted('compare')) printCompare(await benchCompare());
// The realistic corpus (realistic-corpus/): 1 GB by default, --corpus-mb to change it, --sessions for a count of
// sessions (sizes scaled to fit), --corpus-dir to keep it for the next run.
if (wanted('search')) {
  const sessions = values.sessions === undefined ? undefined : Number(values.sessions);
  printSearch(
    await benchSearch({
      corpusMb: Number(values['corpus-mb'] ?? 1024),
      sessions,
      runs: Math.max(1, Number(values.runs ?? 3)),
      withRg: !values['no-rg'],
      corpusDir: values['corpus-dir'],
    }),
  );
}
// Warm `list --json` and `search <word> --json` as processes on the realistic corpus (same options as search), beside rg and `node -e 0`.
if (wanted('cli')) {
  printCliStartup(
    await benchCliStartup({
      corpusMb: Number(values['corpus-mb'] ?? 1024),
      sessions: values.sessions === undefined ? undefined : Number(values.sessions),
      runs: Math.max(5, Number(values.runs ?? 5)),
      corpusDir: values['corpus-dir'],
    }),
  );
}
// One OpenCode store (opencode.db, WAL) of 10,000 sessions by default: each session listed and indexed on its own.
if (wanted('opencode')) printOpenCode(await benchOpenCode(Number(values['opencode-sessions'] ?? 10_000), Math.max(1, Number(values.runs ?? 3))));
// `usage daily` against ccusage on a realistic corpus of --sessions (2,000 by default; --corpus-mb sizes it, 128 KB a
// session by default; --corpus-dir keeps it), then the dashboard's queries (SV_BENCH_USAGE_DASHBOARD=0 leaves them out).
if (wanted('usage'))
  printUsage(
    await benchUsage(Number(values.sessions ?? 2000), Math.max(3, Number(values.runs ?? 3)), {
      corpusMb: values['corpus-mb'] === undefined ? undefined : Number(values['corpus-mb']),
      corpusDir: values['corpus-dir'],
      dashboard: process.env.SV_BENCH_USAGE_DASHBOARD !== '0',
    }),
  );
// The list's and the dashboard's first paint in headless Chromium, serve warm on the realistic corpus (same corpus options as search).
if (wanted('paint')) {
  printFirstPaint(
    await benchFirstPaint({
      corpusMb: Number(values['corpus-mb'] ?? 1024),
      sessions: values.sessions === undefined ? undefined : Number(values.sessions),
      runs: Math.max(3, Number(values.runs ?? 5)),
      corpusDir: values['corpus-dir'],
    }),
  );
  // The same at SV_BENCH_PAINT_SESSIONS sessions (100,000 by default; 0 leaves it out), on the dashboard bench's synthetic index
  // (SV_BENCH_DASHBOARD_INDEX: a kept one is copied instead of built).
  const paintSessions = Number(process.env.SV_BENCH_PAINT_SESSIONS ?? 100_000);
  if (paintSessions > 0)
    printFirstPaint(
      await benchFirstPaintIndexed({
        sessions: paintSessions,
        runs: Math.max(3, Number(values.runs ?? 5)),
        keptIndex: process.env.SV_BENCH_DASHBOARD_INDEX || undefined,
      }),
    );
}
// The dashboard's queries alone (`--only dashboard`; `usage` runs them too), at SV_BENCH_DASHBOARD_SESSIONS sessions (100,000 by default).
if (values.only?.split(',').includes('dashboard'))
  printDashboard(await benchDashboard(Number(process.env.SV_BENCH_DASHBOARD_SESSIONS ?? 100_000), Math.max(5, Number(values.runs ?? 5))));
// The list at SV_BENCH_DASHBOARD_SESSIONS sessions (100,000 by default) loaded in pages against one answer (`--only list-pages`; SV_BENCH_DASHBOARD_INDEX reuses a kept index).
if (values.only?.split(',').includes('list-pages'))
  printListPages(
    await benchListPages(
      Number(process.env.SV_BENCH_DASHBOARD_SESSIONS ?? 100_000),
      Math.max(3, Number(values.runs ?? 3)),
      process.env.SV_BENCH_DASHBOARD_INDEX || undefined,
    ),
  );
if (wanted('bundle')) printBundle(await benchBundle(Number(values['bundle-mb'] ?? 1024)));
if (wanted('redaction')) printRedaction(await benchRedaction());
// The team store: a throwaway PostgreSQL cluster, `--sessions` in the store at the end (10,000 by default).
if (wanted('team')) printTeam(await benchTeam(Number(values.sessions ?? 10_000)));
// Team search at 10,000 and 100,000 sessions on a store kept under /tmp (SV_BENCH_TEAM_STORE), made on first use (`--only team-scale`).
if (values.only?.split(',').includes('team-scale')) printTeamScale(await benchTeamScale(Math.max(1, Number(values.runs ?? 3))));
if (wanted('recognition')) printRecognition(await benchRecognition());
if (wanted('renderer')) printRendererSize(measureRenderer(join(import.meta.dirname, '..', '..', 'out', 'renderer')));
