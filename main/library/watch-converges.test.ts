// Random file operations under a watched folder (sessions written, grown, cut, moved, replaced, deleted, whole folders removed): the app's list comes to what a fresh scan of the folder lists.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appendFile, mkdir, mkdtemp, readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServices, type Services } from '../app/services.ts';
import { freshListing, settledListing } from '../test-support/converges.ts';
import { samplesDir } from '../test-support/samples.ts';

/** Session files of two formats, in their tools' layouts, to write into the slots. */
const SOURCES = [
  'claude-code/projects/-home-user-src-demo/11111111-1111-4111-8111-111111111111.jsonl',
  'claude-code/projects/-home-user-src-demo/33333333-3333-4333-8333-333333333333.jsonl',
  'claude-code/projects/-tmp/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl',
].map((p) => readFileSync(join(samplesDir, p)));

/** Where sessions may lie: two projects' folders, a few file names each. */
const SLOTS = [
  '.claude/projects/-home-dev-one/aaaaaaaa-0000-4000-8000-000000000001.jsonl',
  '.claude/projects/-home-dev-one/aaaaaaaa-0000-4000-8000-000000000002.jsonl',
  '.claude/projects/-home-dev-two/bbbbbbbb-0000-4000-8000-000000000001.jsonl',
  '.claude/projects/-home-dev-two/bbbbbbbb-0000-4000-8000-000000000002.jsonl',
];
const FOLDERS = ['.claude/projects/-home-dev-one', '.claude/projects/-home-dev-two'];

type Op =
  | { kind: 'write' | 'atomic'; slot: number; source: number }
  | { kind: 'append' | 'remove'; slot: number }
  | { kind: 'cut'; slot: number; fraction: number }
  | { kind: 'move'; from: number; to: number }
  | { kind: 'removeFolder'; folder: number }
  | { kind: 'pause'; ms: number };

const slot = fc.integer({ min: 0, max: SLOTS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constantFrom('write' as const, 'atomic' as const), slot, source: fc.integer({ min: 0, max: SOURCES.length - 1 }) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('append' as const, 'remove' as const), slot }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cut' as const), slot, fraction: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), from: slot, to: slot }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeFolder' as const), folder: fc.integer({ min: 0, max: FOLDERS.length - 1 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pause' as const), ms: fc.constantFrom(0, 5, 50, 300) }) },
);

async function apply(root: string, o: Op): Promise<void> {
  const at = (i: number) => join(root, SLOTS[i]!);
  if (o.kind === 'pause') return void (await new Promise((resolve) => setTimeout(resolve, o.ms)));
  if (o.kind === 'removeFolder') return rm(join(root, FOLDERS[o.folder]!), { recursive: true, force: true });
  if (o.kind === 'move') {
    if (o.from === o.to || !existsSync(at(o.from))) return;
    await mkdir(dirname(at(o.to)), { recursive: true });
    return rename(at(o.from), at(o.to));
  }
  const file = at(o.slot);
  if (o.kind === 'write' || o.kind === 'atomic') {
    await mkdir(dirname(file), { recursive: true });
    if (o.kind === 'write') return writeFile(file, SOURCES[o.source]!);
    await writeFile(`${file}.tmp`, SOURCES[o.source]!);
    return rename(`${file}.tmp`, file);
  }
  if (!existsSync(file)) return;
  if (o.kind === 'remove') return rm(file);
  const bytes = await readFile(file);
  if (o.kind === 'cut') return truncate(file, Math.floor(bytes.length * o.fraction));
  // Grown by a copy of its last whole line, as an agent appends.
  const lines = bytes.toString('utf8').split('\n').filter(Boolean);
  if (lines.length) await appendFile(file, `${bytes.at(-1) === 0x0a ? '' : '\n'}${lines.at(-1)}\n`);
}

/** What a list shows of each session, in a stable order. */
async function listing(services: Services): Promise<string[]> {
  const { sessions } = await services.client.listSessions({ includeChildren: true, limit: 1000 });
  return sessions.map((s) => `${s.key} ${s.messageCount} ${s.title} ${s.unreadable?.code ?? ''} ${s.primaryPath}`).sort();
}

describe('a watched folder under random changes', () => {
  it('lists what a fresh scan lists once the changes stop', async () => {
    const base = await mkdtemp(join(tmpdir(), 'sv-watch-converges-'));
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
          const dir = join(base, `run-${++run}`);
          const root = join(dir, 'root');
          await mkdir(join(root, '.claude', 'projects'), { recursive: true });
          // Something there before the app starts, as on any machine.
          await apply(root, { kind: 'write', slot: 0, source: 0 });
          const watching = createServices({ dataDir: join(dir, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: true, env: {} });
          try {
            await watching.start();
            await watching.whenScanned();
            for (const o of ops) await apply(root, o);
            const truth = await freshListing(root, join(dir, 'fresh'), listing);
            const seen = await settledListing(watching, truth, listing);
            expect(seen, JSON.stringify(ops)).toEqual(truth);
          } finally {
            await watching.close();
          }
        }),
        { numRuns: Number(process.env.SV_WATCH_RUNS ?? 5), ...(process.env.SV_WATCH_RUNS ? {} : { seed: 2026 }) },
      );
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  }, 600_000);
});
