// Benchmark of the quick command line: warm `list --json` and `search <word> --json` as whole processes (spawn to exit) on the realistic corpus, beside `rg -l -i -w <word>` and `node -e 0` in the same run.
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { SNAPSHOT_FILE } from '../cli/index-current.ts';
import { CLI } from './list-vs-ccusage.ts';
import { realisticCorpus, type RealisticCorpus } from './realistic-corpus/corpus.ts';
import { RG, recallWords } from './search-recall.ts';
import { timedProcess } from './timed-process.ts';
import { settle } from './settle.ts';

const repo = resolve(import.meta.dirname, '..', '..');

export interface CliStartupOptions {
  corpusMb: number;
  sessions?: number | undefined;
  /** Each process is timed this many times (at least 5), interleaved. */
  runs: number;
  corpusDir?: string | undefined;
}

export interface WordRuns {
  word: string;
  /** Files rg finds the word in. */
  rgFiles: number;
  /** Sessions the search returns (its total). */
  sessions: number;
  searchMs: number[];
  rgMs: number[];
  /** The last run's output, read once the runs are over. */
  lastOutput?: string;
}

export interface CliStartupFigures {
  corpus: RealisticCorpus;
  nodeMs: number[];
  versionMs: number[];
  listMs: number[];
  /** The same `list --json` down the full path (the snapshot removed first: services, restore, a scan that finds nothing new). */
  fullListMs: number[];
  /** `list --json`, and `search <rarest word> --json`, each right after one Claude Code session grew by a line (an agent writing it). */
  grownListMs: number[];
  grownSearchMs: number[];
  /** The session that grew: its size before the bench. */
  grownBytes: number;
  listed: number;
  words: WordRuns[];
  /** 1, 5 and 15 minute load averages at the start and the end. */
  load: [number[], number[]];
}

export async function benchCliStartup(o: CliStartupOptions): Promise<CliStartupFigures> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm run bench\` does).`);
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-cli-'));
  try {
    const corpus = await realisticCorpus(o.corpusDir ?? join(base, 'corpus'), { sizeMb: o.corpusMb, sessions: o.sessions });
    const load0 = loadavg();
    const home = join(base, 'home');
    await mkdir(home, { recursive: true });
    const dataDir = join(base, 'data');
    const env = { ...process.env, SESSION_VAULT_HOME: dataDir, HOME: home };
    // Each timed process starts with this one idle: its own collector, busy after parsing a run's 1.7 MB of output,
    // would take one of the machine's two cores from the process measured.
    const timed = async (command: string, args: string[]) => (await settle(100, 2000), timedProcess(command, args, env));
    const cli = (...args: string[]) => timed(process.execPath, [CLI, ...args, '--no-defaults', '--root', corpus.root]);
    // The rarest, a middling and the most common of the recall words (search-recall.ts), with the files rg finds them in.
    const picked = await recallWords(corpus, repo, 3);
    // Warm: the first run scans and indexes everything (and makes the vault's folders), the second records what it saw.
    await cli('search', picked[0]?.word ?? 'the', '--json');
    await cli('list', '--json');
    if (!existsSync(join(dataDir, SNAPSHOT_FILE))) throw new Error('the full run recorded no snapshot: the fast path would not be taken');
    const words: WordRuns[] = picked.map((p) => ({ word: p.word, rgFiles: p.files.length, sessions: 0, searchMs: [], rgMs: [] }));
    const nodeMs: number[] = [];
    const versionMs: number[] = [];
    const listMs: number[] = [];
    const fullListMs: number[] = [];
    const grownListMs: number[] = [];
    const grownSearchMs: number[] = [];
    // The session an agent is writing: a Claude Code transcript of the median size, a user line added before each run.
    const grown = grownSession(corpus);
    const original = await readFile(grown);
    const grow = (n: number) => appendFile(grown, `${JSON.stringify(userLine(grown, n))}\n`);
    let lastList = '[]';
    // Interleaved, so a busy moment of a shared machine falls on a baseline and its measure alike.
    for (let r = 0; r < Math.max(5, o.runs); r++) {
      nodeMs.push((await timed(process.execPath, ['-e', '0'])).ms);
      versionMs.push((await timed(process.execPath, [CLI, '--version'])).ms);
      const list = await cli('list', '--json');
      listMs.push(list.ms);
      lastList = list.stdout;
      // One session grew since the last run: the list, then a search (which takes in the text the list left waiting).
      await grow(2 * r);
      grownListMs.push((await cli('list', '--json')).ms);
      await grow(2 * r + 1);
      grownSearchMs.push((await cli('search', words[0]?.word ?? 'the', '--json')).ms);
      // The full path, as every warm run took before: it records the snapshot again for the runs after it.
      await rm(join(dataDir, SNAPSHOT_FILE));
      fullListMs.push((await cli('list', '--json')).ms);
      if (!existsSync(join(dataDir, SNAPSHOT_FILE))) throw new Error('the full run recorded no snapshot');
      for (const w of words) {
        const search = await cli('search', w.word, '--json');
        w.searchMs.push(search.ms);
        w.lastOutput = search.stdout;
        // rg exits 1 when nothing matches; every word here matches.
        w.rgMs.push((await timed(RG, ['-l', '-i', '-w', '--hidden', '--no-ignore', '--', w.word, corpus.root])).ms);
      }
    }
    const listed = (JSON.parse(lastList) as unknown[]).length;
    for (const w of words) w.sessions = (JSON.parse(w.lastOutput ?? '{}') as { total?: number }).total ?? 0;
    // A kept corpus (--corpus-dir) goes back to what it was.
    await writeFile(grown, original);
    return { corpus, nodeMs, versionMs, listMs, fullListMs, grownListMs, grownSearchMs, grownBytes: original.length, listed, words, load: [load0, loadavg()] };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

/** The Claude Code transcript of the median size (not a sub-agent's). */
function grownSession(corpus: RealisticCorpus): string {
  const claude = corpus.files.filter((f) => f.format === 'claude-code' && !f.path.includes('/subagents/')).sort((a, b) => a.bytes - b.bytes);
  const picked = claude[Math.floor(claude.length / 2)];
  if (!picked) throw new Error('the corpus has no Claude Code session to grow');
  return picked.path;
}

/** A user's line as Claude Code appends it to the session's transcript (the file is named by the session's id). */
function userLine(path: string, n: number) {
  const sessionId = basename(path, '.jsonl');
  const uuid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    type: 'user',
    message: { role: 'user', content: `Keep going: run the tests again and fix what still fails (${n}).` },
    uuid,
    sessionId,
    timestamp: new Date(Date.UTC(2026, 10, 28, 12, 0, n)).toISOString(),
  };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)] ?? Number.NaN;
/** Median [min–max]. */
function over(values: number[], show: (n: number) => string): string {
  const s = sorted(values);
  return `${show(median(values))} [${show(s[0] as number)}–${show(s[s.length - 1] as number)}]`;
}
const ms = (n: number) => `${Math.round(n)} ms`;
const times = (n: number) => `${(Math.round(n * 100) / 100).toFixed(2)}×`;
/** Each run's ratio of a measure to its baseline in the same run. */
const ratios = (a: number[], b: number[]) => a.map((x, i) => x / (b[i] as number));

export function printCliStartup(f: CliStartupFigures): void {
  const n = f.listMs.length;
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(' ');
  console.log(
    `\nQuick command line (warm, spawn to exit) — ${f.corpus.files.length.toLocaleString('en-US')} files, ${Math.round(f.corpus.bytes / 1024 / 1024)} MB; ${n} runs, medians [min–max]; load average ${load(f.load[0])} at the start, ${load(f.load[1])} at the end`,
  );
  console.log(`  node -e 0: ${over(f.nodeMs, ms)}; session-vault --version: ${over(f.versionMs, ms)}`);
  console.log(
    `  list --json (${f.listed.toLocaleString('en-US')} sessions): ${over(f.listMs, ms)} (target < 300 ms), ${over(ratios(f.listMs, f.nodeMs), times)} node -e 0`,
  );
  console.log(
    `  list --json down the full path (no snapshot): ${over(f.fullListMs, ms)}; the fast path takes ${over(ratios(f.listMs, f.fullListMs), times)} of it`,
  );
  console.log(
    `  after one session grew by a line (${Math.round(f.grownBytes / 1024)} KB, an agent writing it): list --json ${over(f.grownListMs, ms)}, ${over(ratios(f.grownListMs, f.fullListMs), times)} the full path; search ${f.words[0]?.word ?? 'the'} --json ${over(f.grownSearchMs, ms)}`,
  );
  for (const w of f.words) {
    console.log(
      `  search ${w.word} --json (${w.sessions} sessions; rg: ${w.rgFiles} files): ${over(w.searchMs, ms)}, rg -l -i -w ${over(w.rgMs, ms)}; ${over(ratios(w.searchMs, w.rgMs), times)} rg (target ≤ 2×), ${over(ratios(w.searchMs, f.nodeMs), times)} node -e 0`,
    );
  }
}
