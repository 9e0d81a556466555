// Benchmark: exporting a generated corpus (1 GB by default) as a bundle, against `zip -r -6` on the same files, run before and after it.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportBundle } from '../bundle/export-bundle.ts';
import { benchServices } from './bench-services.ts';
import { writeClaudeTranscript } from './generate-large.ts';
import { settle } from './settle.ts';

export interface BundleRun {
  label: string;
  ms: number;
  /** CPU time of the whole process (every thread), or of zip; steadier than wall time on a shared machine. */
  cpuMs: number | null;
  zipBytes: number;
  /** Resident memory when the run started, and the most it reached. */
  startRssMb: number;
  peakRssMb: number;
}

export interface BundleFigures {
  corpusMb: number;
  files: number;
  runs: BundleRun[];
  /** zip -r -6, run before and after the exports: each export is compared with their mean, so drift in the machine's load cancels out. */
  zip: BundleRun | null;
  zipMs: number[];
}

/** Peak resident memory while `work` runs (the process, worker threads included), sampled every 20 ms. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; startRssMb: number; peakRssMb: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, startRssMb: Math.round(start / 1024 / 1024), peakRssMb: Math.round(peak / 1024 / 1024) };
  } finally {
    clearInterval(timer);
  }
}

/** The process's peak resident memory so far (Linux), read from /proc; null elsewhere. */
async function peakRssOf(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** `session-vault export` as a user runs it, in its own process: wall time and peak RSS of that process. */
function cliExport(dataDir: string, root: string, keys: string[], out: string): Promise<{ ms: number; peakRssMb: number | null }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // The built CLI, as installed (`npm run bench` builds it first); the TypeScript sources would add the type stripper's memory.
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, '..', '..', 'out', 'main', 'cli.js'), 'export', ...keys, '-o', out, '--root', root, '--json'],
      {
        env: { ...process.env, SESSION_VAULT_HOME: dataDir, HOME: join(dataDir, 'home') },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let peak: number | null = null;
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setInterval(() => {
      if (child.pid) void peakRssOf(child.pid).then((mb) => (peak = mb === null ? peak : Math.max(peak ?? 0, mb)));
    }, 50);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code === 0) resolve({ ms: performance.now() - t0, peakRssMb: peak === null ? null : Math.round(peak) });
      else reject(new Error(`session-vault export exited with ${code}: ${err}`));
    });
  });
}

/** Info-ZIP's wall time and CPU time (bash's `times` reports its children's user and system seconds). */
function zipBaseline(root: string, out: string): Promise<{ ms: number; cpuMs: number | null } | null> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn('bash', ['-c', 'zip -r -6 -q "$0" . && times', out], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    child.on('error', () => resolve(null));
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      // Second line: children's user and system time, e.g. "0m41.2s 0m0.6s".
      const times = [...(text.trim().split('\n')[1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60_000 + Number(m[2]) * 1000);
      resolve(code === 0 ? { ms, cpuMs: times.length === 2 ? (times[0] as number) + (times[1] as number) : null } : null);
    });
  });
}

/** `corpusMb` of Claude Code transcripts, `sessionMb` each, exported with and without redaction, then zipped by Info-ZIP. */
export async function benchBundle(corpusMb = 1024, sessionMb = 16): Promise<BundleFigures> {
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-bundle-'));
  const root = join(base, 'root');
  const project = join(root, '.claude', 'projects', '-home-dev-src-big-project');
  const count = Math.max(1, Math.round(corpusMb / sessionMb));
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const id = `bbbbbbbb-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    bytes += await writeClaudeTranscript(join(project, `${id}.jsonl`), Math.round((corpusMb / count) * 1024 * 1024), id);
  }
  const services = benchServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false, env: {} });
  const runs: BundleRun[] = [];
  let zip: BundleRun | null = null;
  let zipMs: number[] = [];
  try {
    await services.start();
    await services.whenScanned();
    const keys = (await services.client.listSessions({ includeChildren: true })).sessions.map((s) => s.key);
    // The loader the app gives exports: a worker of the export's own.
    const openLoader = () => services.bundles.openLoader();
    const zipped: Array<{ ms: number; cpuMs: number | null; bytes: number }> = [];
    const runZip = async () => {
      await settle(1000, 120_000);
      const out = join(base, 'baseline.zip');
      const z = await zipBaseline(root, out);
      if (z) zipped.push({ ...z, bytes: (await stat(out)).size });
      await rm(out, { force: true });
    };
    await runZip();
    for (const [label, redact] of [
      ['export, no redaction', false],
      ['export, redacted (default)', true],
    ] as const) {
      const out = join(base, `${redact ? 'redacted' : 'plain'}.zip`);
      await settle(1000, 120_000);
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const loader = openLoader();
      const { startRssMb, peakRssMb } = await withPeakRss(() => exportBundle(keys, loader, out, { redact, env: {} }).finally(() => loader.close()));
      const cpu = process.cpuUsage(cpu0);
      runs.push({ label, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, zipBytes: (await stat(out)).size, startRssMb, peakRssMb });
      await rm(out);
    }
    // The CLI in a process of its own: the memory figure that matters, free of this process's corpus and scans.
    const cliOut = join(base, 'cli.zip');
    await settle(1000, 120_000);
    const cli = await cliExport(join(base, 'data'), root, keys, cliOut);
    runs.push({
      label: 'session-vault export (CLI)',
      ms: cli.ms,
      cpuMs: null,
      zipBytes: (await stat(cliOut)).size,
      startRssMb: 0,
      peakRssMb: cli.peakRssMb ?? 0,
    });
    await rm(cliOut);
    await runZip();
    if (zipped.length) {
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const cpus = zipped.map((z) => z.cpuMs).filter((c): c is number => c !== null);
      zip = {
        label: 'zip -r -6 (Info-ZIP)',
        ms: mean(zipped.map((z) => z.ms)),
        cpuMs: cpus.length ? mean(cpus) : null,
        zipBytes: zipped[0]?.bytes ?? 0,
        startRssMb: 0,
        peakRssMb: 0,
      };
      zipMs = zipped.map((z) => z.ms);
    }
  } finally {
    await services.close();
    await rm(base, { recursive: true, force: true });
  }
  return { corpusMb: Math.round(bytes / 1024 / 1024), files: count, runs, zip, zipMs };
}

export function printBundle(f: BundleFigures): void {
  console.log(`\nBundle export — ${f.corpusMb} MB in ${f.files} Claude Code sessions (each with its session.json, so the bundle holds more than zip's input)`);
  const rate = (ms: number) => `${Math.round(f.corpusMb / (ms / 1000))} MB/s`;
  for (const r of [...f.runs, ...(f.zip ? [f.zip] : [])]) {
    const vsZip =
      f.zip && r !== f.zip
        ? `  ${(r.ms / f.zip.ms).toFixed(2)}× zip's time${r.cpuMs !== null && f.zip.cpuMs ? `, ${(r.cpuMs / f.zip.cpuMs).toFixed(2)}× its CPU` : ''}`
        : '';
    const rss = r.startRssMb ? `  RSS ${r.startRssMb} → peak ${r.peakRssMb} MB` : r.peakRssMb ? `  peak RSS ${r.peakRssMb} MB (whole process)` : '';
    const cpu = r.cpuMs !== null ? `  CPU ${(r.cpuMs / 1000).toFixed(1)} s` : '';
    const runsNote = r === f.zip && f.zipMs.length > 1 ? `  (mean of ${f.zipMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(' before, ')} after)` : '';
    console.log(
      `  ${r.label.padEnd(28)} ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${rate(r.ms).padStart(9)}  ${Math.round(r.zipBytes / 1024 / 1024)} MB out${cpu}${rss}${vsZip}${runsNote}`,
    );
  }
  if (!f.zip) console.log('  zip -r -6: not run (no `zip` on PATH)');
}
