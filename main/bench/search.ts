// Benchmark on the realistic corpus: the first scan against the read+parse floor (listed, searchable), the CLI list against ccusage, recall against rg, warm start, queries, rest RSS.
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { benchServices } from './bench-services.ts';
import { builtFile } from './built.ts';
import { ccusageSessions, listColdWarm, type ListRuns } from './list-vs-ccusage.ts';
import { listThenSearch, type ListThenSearch } from './search-after-list.ts';
import { readParseFloor, type FloorFigures } from './read-parse-floor.ts';
import { claudeFiles, realisticCorpus, type RealisticCorpus } from './realistic-corpus/corpus.ts';
import { printCorpusProfile } from './realistic-corpus/print-profile.ts';
import { TextSource } from './realistic-corpus/text-source.ts';
import type { ColdFigures } from './search-cold.ts';
import { fixedQueries } from './search-queries.ts';
import { measureRecall, RG, recallWords, type WordRecall } from './search-recall.ts';
import { warmStart, type WarmFigures } from './search-warm.ts';
import { timedProcess } from './timed-process.ts';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '..', '..');

export interface SearchBenchOptions {
  corpusMb: number;
  /** Top-level sessions (their sizes scaled to fill corpusMb); default: as many as the size holds. */
  sessions?: number | undefined;
  /** Floor, cold list, searchable and ccusage are measured this many times, interleaved. */
  runs: number;
  withRg: boolean;
  /** Keep the corpus here and use it again next time (default: a temp folder, removed at the end). */
  corpusDir?: string | undefined;
}

/** One run's measurements, each beside its own baseline. */
export interface RunFigures {
  floor: FloorFigures;
  claudeFloor: FloorFigures;
  /** `list --json` over the whole corpus, as a process: into a fresh data folder, then again. */
  list: ListRuns;
  /** The same over the Claude Code folder only (what ccusage reads). */
  claudeList: ListRuns;
  ccusageMs: number;
  ccusageSessions: number;
  /** The first scan in a fresh process: listed, searchable, merged. */
  cold: ColdFigures;
  /** A cold `list`, then the first `search` in its data folder (which reads the text the list left unread). */
  thenSearch: ListThenSearch;
}

export interface SearchFigures {
  corpus: RealisticCorpus;
  runs: RunFigures[];
  indexFileMb: number;
  warm: WarmFigures;
  /** A bare `session-vault --version`: what starting the built CLI costs (the warm start's baseline). */
  cliStartMs: number;
  queries: string[];
  queryMs: number[];
  rgMs: number[] | null;
  recall: WordRecall[];
  incrementalMs: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function coldScan(dataDir: string, root: string, queryFile: string): Promise<ColdFigures> {
  await rm(dataDir, { recursive: true, force: true });
  const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'search-cold.ts'), dataDir, root, queryFile], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as ColdFigures;
}

/** A line appended to a small Claude Code transcript while the app runs, until a search finds it. */
async function incremental(client: ReturnType<typeof benchServices>['client'], corpus: RealisticCorpus): Promise<number> {
  const target = claudeFiles(corpus).find((f) => f.bytes < 100_000 && !f.path.includes('/subagents/')) ?? corpus.files[0];
  if (!target) return Number.NaN;
  const marker = 'zyxwvutsmarker';
  const first = (await readFile(target.path, 'utf8')).split('\n').find((l) => l.includes('"sessionId"')) ?? '{}';
  const record = {
    ...(JSON.parse(first) as object),
    type: 'user',
    uuid: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
    parentUuid: null,
    message: { role: 'user', content: `please look at ${marker}` },
  };
  const t0 = performance.now();
  await appendFile(target.path, `${JSON.stringify(record)}\n`);
  for (;;) {
    const page = await client.searchSessions({ query: marker, limit: 1, offset: 0 });
    if (page.total > 0) return performance.now() - t0;
    if (performance.now() - t0 > 10_000) throw new Error('appended text never became searchable');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function benchSearch(o: SearchBenchOptions): Promise<SearchFigures> {
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-search-'));
  const dataDir = join(base, 'data');
  try {
    const corpus = await realisticCorpus(o.corpusDir ?? join(base, 'corpus'), { sizeMb: o.corpusMb, sessions: o.sessions });
    // Printed at once: the corpus is what every figure below is about.
    printCorpusProfile(corpus);
    const words = await recallWords(corpus, repo);
    const queries = fixedQueries(
      words.map((w) => w.word),
      TextSource.load(repo),
      corpus.projects,
    );
    const queryFile = join(base, 'queries.json');
    await writeFile(queryFile, JSON.stringify(queries));
    const paths = corpus.files.map((f) => f.path);
    const claudePaths = claudeFiles(corpus).map((f) => f.path);

    // Interleaved, so a busy minute of a shared machine falls on a baseline and its measure alike.
    const runs: RunFigures[] = [];
    for (let r = 0; r < o.runs; r++) {
      const floor = readParseFloor(paths);
      const claudeFloor = readParseFloor(claudePaths);
      const list = await listColdWarm(corpus.root);
      const claudeList = await listColdWarm(corpus.claudeDir);
      const cc = await ccusageSessions(corpus.claudeDir);
      const cold = await coldScan(dataDir, corpus.root, queryFile);
      const thenSearch = await listThenSearch(corpus.root, words[Math.floor(words.length / 2)]?.word ?? 'constructor');
      runs.push({ floor, claudeFloor, list, claudeList, ccusageMs: cc.ms, ccusageSessions: cc.sessions, cold, thenSearch });
    }
    const indexFileMb =
      (await stat(join(dataDir, 'index.sqlite')).then(
        (s) => s.size,
        () => 0,
      )) /
      1024 /
      1024;

    const cliStartMs = (await timedProcess(process.execPath, [builtFile('main/cli.js'), '--version'], process.env)).ms;
    const warm = await warmStart(dataDir, corpus.root);

    // Queries, warm, in this process; then recall and an appended line.
    const services = benchServices({ dataDir, shell: 'cli', extraRoots: [corpus.root], discoverDefaults: false, watch: true });
    await services.start();
    await services.whenScanned();
    for (const query of queries.slice(0, 5)) await services.client.searchSessions({ query, limit: 20, offset: 0 });
    const queryMs: number[] = [];
    for (const query of queries) {
      const q0 = performance.now();
      await services.client.searchSessions({ query, limit: 20, offset: 0 });
      queryMs.push(performance.now() - q0);
    }
    let rgMs: number[] | null = null;
    if (o.withRg) {
      rgMs = [];
      for (const query of queries) {
        const plain =
          query
            .replace(/[a-z]+:\S+/gi, '')
            .replace(/["*]/g, '')
            .trim()
            .split(/\s+/)
            .pop() ?? query;
        const r0 = performance.now();
        await run(RG, ['-l', '-i', '-F', '--hidden', '--no-ignore', '--', plain, corpus.root], { maxBuffer: 256 << 20 }).catch(() => undefined);
        rgMs.push(performance.now() - r0);
      }
    }
    const recall = await measureRecall(services.client, words);
    const incrementalMs = await incremental(services.client, corpus);
    await services.close();
    return { corpus, runs, indexFileMb, warm, cliStartMs, queries, queryMs, rgMs, recall, incrementalMs };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

const r2 = (n: number) => (Math.round(n * 100) / 100).toFixed(2);
const ms = (n: number) => `${Math.round(n)} ms`;
/** A figure over the runs: the median, then every run's value. */
function over(values: number[], show: (n: number) => string): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  return values.length > 1 ? `${show(median)} [${show(sorted[0] as number)}–${show(sorted[sorted.length - 1] as number)}]` : show(median);
}
const ratio = (values: number[], target: string) => `${over(values, (n) => `${r2(n)}×`)} (target ${target})`;

export function printSearch(f: SearchFigures): void {
  const runs = f.runs;
  const n = runs.length;
  console.log(
    `\nFirst scan, list and search — ${f.corpus.files.length.toLocaleString('en-US')} files, ${Math.round(f.corpus.bytes / 1024 / 1024)} MB; ${n} run${n === 1 ? '' : 's'}, medians [min–max], each ratio against its baseline in the same run`,
  );
  console.log(
    `  floor (read + JSON.parse every file, one thread): ${over(
      runs.map((r) => r.floor.ms),
      ms,
    )}`,
  );
  console.log(
    `  cold \`list --json\` (fresh data folder, spawn to exit): ${over(
      runs.map((r) => r.list.cold.ms),
      ms,
    )}, peak RSS ${over(
      runs.map((r) => r.list.cold.peakRssMb),
      (x) => `${Math.round(x)} MB`,
    )}`,
  );
  console.log(
    `    / floor:                          ${ratio(
      runs.map((r) => r.list.cold.ms / r.floor.ms),
      '≤ 1.5×',
    )}`,
  );
  console.log(
    `    then the first \`search\` (it reads the text the list left unread): ${over(
      runs.map((r) => r.thenSearch.searchMs),
      ms,
    )}, / floor ${over(
      runs.map((r) => r.thenSearch.searchMs / r.floor.ms),
      (x) => `${r2(x)}×`,
    )} (${runs[0]?.thenSearch.found.toLocaleString('en-US')} sessions found; its list ${over(
      runs.map((r) => r.thenSearch.listMs),
      ms,
    )})`,
  );
  console.log(
    `  first scan in the app's services:  listed ${over(
      runs.map((r) => r.cold.listedMs),
      ms,
    )}, searchable ${over(
      runs.map((r) => r.cold.searchableMs),
      ms,
    )}, identifiers in ${over(
      runs.map((r) => r.cold.caughtUpMs),
      ms,
    )}`,
  );
  console.log(
    `    listed / floor:                   ${ratio(
      runs.map((r) => r.cold.listedMs / r.floor.ms),
      '≤ 1.5×',
    )}`,
  );
  console.log(
    `    searchable (words) / floor:       ${ratio(
      runs.map((r) => r.cold.searchableMs / r.floor.ms),
      '≤ 2.5×',
    )}`,
  );
  console.log(
    `    identifier substrings too / floor: ${over(
      runs.map((r) => r.cold.caughtUpMs / r.floor.ms),
      (x) => `${r2(x)}×`,
    )}`,
  );
  console.log(
    `    CPU (every thread) / floor's:     ${over(
      runs.map((r) => r.cold.cpuMs / r.floor.cpuMs),
      (x) => `${r2(x)}×`,
    )}; peak RSS ${over(
      runs.map((r) => r.cold.peakRssMb),
      (x) => `${Math.round(x)} MB`,
    )}`,
  );
  console.log(
    `    then tables merged:               ${over(
      runs.map((r) => r.cold.tidyMs),
      ms,
    )} more; queries meanwhile p95 ${r2(
      percentile(
        runs.flatMap((r) => r.cold.mergingQueryMs),
        95,
      ),
    )} ms`,
  );
  console.log(
    `  warm \`list --json\`:                ${over(
      runs.map((r) => r.list.warm.ms),
      ms,
    )} (${runs[0]?.list.listed.toLocaleString('en-US')} sessions listed)`,
  );
  console.log(`  Claude Code folder only (${claudeFiles(f.corpus).length.toLocaleString('en-US')} files, what ccusage reads):`);
  console.log(
    `    floor:                            ${over(
      runs.map((r) => r.claudeFloor.ms),
      ms,
    )}`,
  );
  console.log(
    `    ccusage session --offline --json: ${over(
      runs.map((r) => r.ccusageMs),
      ms,
    )} (${runs[0]?.ccusageSessions} sessions), / floor ${over(
      runs.map((r) => r.ccusageMs / r.claudeFloor.ms),
      (x) => `${r2(x)}×`,
    )}`,
  );
  console.log(
    `    cold list --json:                 ${over(
      runs.map((r) => r.claudeList.cold.ms),
      ms,
    )}, / floor ${over(
      runs.map((r) => r.claudeList.cold.ms / r.claudeFloor.ms),
      (x) => `${r2(x)}×`,
    )}`,
  );
  console.log(
    `    cold list / ccusage:              ${ratio(
      runs.map((r) => r.claudeList.cold.ms / r.ccusageMs),
      '≤ 2×',
    )}`,
  );
  console.log(
    `    warm list:                        ${over(
      runs.map((r) => r.claudeList.warm.ms),
      ms,
    )}; ccusage / warm list ${ratio(
      runs.map((r) => r.ccusageMs / r.claudeList.warm.ms),
      '≥ 3×',
    )}`,
  );
  const words = f.recall;
  const rgTotal = words.reduce((s, w) => s + w.rgFiles, 0);
  const found = words.reduce((s, w) => s + w.found, 0);
  console.log(
    `  recall against rg -w -i over ${words.length} words: ${found.toLocaleString('en-US')} of ${rgTotal.toLocaleString('en-US')} files found, ${((found / Math.max(1, rgTotal)) * 100).toFixed(2)}% (target 100%)`,
  );
  console.log(`    ${words.map((w) => `${w.word} ${w.found}/${w.rgFiles}`).join(', ')}`);
  for (const w of words.filter((x) => x.missed.length)) console.log(`    missed for "${w.word}": ${w.missed.join(', ')}`);
  console.log(`  index file: ${f.indexFileMb.toFixed(1)} MB (${r2((f.indexFileMb * 1024 * 1024) / f.corpus.bytes)}× the corpus)`);
  console.log(
    `  warm start to first page:           ${ms(f.warm.firstPageMs)} (spawn serve → 100 rows over HTTP), ${r2(f.warm.firstPageMs / f.cliStartMs)}× a bare \`--version\` (${ms(f.cliStartMs)}); target < 1000 ms`,
  );
  const p50 = percentile(f.queryMs, 50);
  const p95 = percentile(f.queryMs, 95);
  console.log(`  ${f.queries.length} queries (warm):                 p50 ${r2(p50)} ms, p95 ${r2(p95)} ms (target p95 < 50 ms)`);
  if (f.rgMs)
    console.log(
      `  rg -l -i -F on the raw files:       p50 ${r2(percentile(f.rgMs, 50))} ms, p95 ${r2(percentile(f.rgMs, 95))} ms (index ${r2(percentile(f.rgMs, 50) / Math.max(p50, 0.01))}× faster at p50)`,
    );
  console.log(`  appended line searchable after:     ${ms(f.incrementalMs)}`);
  console.log(`  RSS at rest (serve, after its rescan): ${Math.round(f.warm.restRssMb)} MB (target < 200 MB)`);
}
