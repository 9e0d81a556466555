// Benchmark: a 200 MB Claude Code transcript and a 100 MB Codex rollout — time to appear in the list and to open.
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { benchServices } from './bench-services.ts';
import { readJsonLines } from '../sources/jsonl.ts';
import { describeError } from '../../shared/api-client.ts';
import { writeClaudeTranscript, writeCodexRollout } from './generate-large.ts';

export interface LargeFileFigures {
  name: string;
  megabytes: number;
  floorMs: number;
  listedMs: number;
  openMs: number;
  openPayloadMb: number;
  messagesTotal: number;
}

const ms = (t0: number) => Math.round(performance.now() - t0);

async function measure(
  name: string,
  megabytes: number,
  relative: string,
  key: string,
  write: (path: string, bytes: number) => Promise<number>,
): Promise<LargeFileFigures> {
  const base = await mkdtemp(join(tmpdir(), 'sv-bench-large-'));
  const root = join(base, 'root');
  const staging = join(base, 'staging', 'file.jsonl');
  const target = join(root, relative);
  await mkdir(dirname(target), { recursive: true });
  await write(staging, megabytes * 1024 * 1024);

  // The floor: stream and JSON-parse every line, nothing else.
  let t0 = performance.now();
  await readJsonLines(staging);
  const floorMs = ms(t0);

  const services = benchServices({ dataDir: join(base, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false });
  try {
    await services.start();
    await services.whenScanned();
    const listed = new Promise<void>((resolve) => {
      const off = services.subscribe((e) => {
        if (e.name === 'sessionsChanged' && e.payload.changed.includes(key)) {
          off();
          resolve();
        }
      });
    });
    // Added the way tools add files: renamed into the watched folder in one step.
    t0 = performance.now();
    await rename(staging, target);
    await listed;
    const listedMs = ms(t0);

    t0 = performance.now();
    const opened = await services.client.getSession({ key }).catch((err: unknown) => {
      throw new Error(`${name}: ${describeError(err)}`);
    });
    const payload = JSON.stringify(opened);
    const openMs = ms(t0);
    return {
      name,
      megabytes: Math.round((await stat(target)).size / 1024 / 1024),
      floorMs,
      listedMs,
      openMs,
      openPayloadMb: Math.round((Buffer.byteLength(payload) / 1024 / 1024) * 10) / 10,
      messagesTotal: opened.messagesTotal,
    };
  } finally {
    await services.close();
    await rm(base, { recursive: true, force: true });
  }
}

export async function benchLargeFiles(): Promise<LargeFileFigures[]> {
  return [
    await measure(
      'Claude Code transcript',
      200,
      'claude/projects/-home-dev-src-big/bbbbbbbb-0000-4000-8000-000000000200.jsonl',
      'claude-code:bbbbbbbb-0000-4000-8000-000000000200',
      (p, b) => writeClaudeTranscript(p, b),
    ),
    await measure(
      'Codex rollout',
      100,
      'codex/sessions/2026/06/02/rollout-2026-06-02T09-00-00-019f0000-0000-7000-8000-000000000100.jsonl',
      'codex:019f0000-0000-7000-8000-000000000100',
      (p, b) => writeCodexRollout(p, b),
    ),
  ];
}

export function printLargeFiles(rows: LargeFileFigures[]): void {
  console.log('\nLarge files (target: listed < 2000 ms after being added, first screen < 2000 ms)');
  console.log('file                     size    floor(parse)  listed   x floor  open(1st window)  payload  messages');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(24)} ${`${r.megabytes} MB`.padStart(6)}  ${`${r.floorMs} ms`.padStart(10)}  ${`${r.listedMs} ms`.padStart(8)}  ${(r.listedMs / r.floorMs).toFixed(2).padStart(6)}x  ${`${r.openMs} ms`.padStart(14)}  ${`${r.openPayloadMb} MB`.padStart(7)}  ${String(r.messagesTotal).padStart(8)}`,
    );
  }
}
