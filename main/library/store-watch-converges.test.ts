// Random writes to a watched OpenCode store while its writer keeps it open (sessions added, grown, renamed, edited, deleted; WAL checkpoints): the app's list comes to what a fresh scan lists.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { createServices, type Services } from '../app/services.ts';
import { freshListing, settledListing } from '../test-support/converges.ts';
import { appendTurn, createOpenCodeStore, writeSession } from '../sources/opencode/opencode-test-store.ts';

const IDS = ['ses_aaaa000001', 'ses_aaaa000002', 'ses_aaaa000003', 'ses_aaaa000004'];
const CWD = '/home/dev/harbor-api';

type Op = { kind: 'add' | 'grow' | 'delete' | 'rename' | 'edit'; session: number } | { kind: 'checkpoint' } | { kind: 'pause'; ms: number };

const session = fc.integer({ min: 0, max: IDS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), session }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('grow' as const), session }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('delete' as const, 'rename' as const, 'edit' as const), session }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('checkpoint' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pause' as const), ms: fc.constantFrom(0, 5, 50, 300) }) },
);

let clock = 1_767_225_600_000;
const turn = (n: number) => ({ prompt: `Prompt ${n}: fix the parser`, answer: `Answer ${n}: done` });

function exists(db: DatabaseSync, id: string): boolean {
  return db.prepare('SELECT 1 FROM session WHERE id = ?').get(id) !== undefined;
}

async function apply(db: DatabaseSync, o: Op): Promise<void> {
  if (o.kind === 'pause') return void (await new Promise((resolve) => setTimeout(resolve, o.ms)));
  if (o.kind === 'checkpoint') return void db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const id = IDS[o.session]!;
  const here = exists(db, id);
  clock += 60_000;
  if (o.kind === 'add') {
    if (!here) writeSession(db, { id, title: `Session ${id}`, directory: CWD, startMs: clock, turns: [turn(clock)] });
    return;
  }
  if (!here) return;
  if (o.kind === 'grow') return appendTurn(db, id, turn(clock), clock, CWD);
  if (o.kind === 'rename') return void db.prepare('UPDATE session SET title = ?, time_updated = ? WHERE id = ?').run(`Renamed ${clock}`, clock, id);
  if (o.kind === 'edit') {
    // A text part rewritten in place, as a streamed answer is: its data and its time change, nothing else.
    const part = db.prepare('SELECT id FROM part WHERE session_id = ? AND data LIKE \'%"type":"text"%\' ORDER BY id DESC LIMIT 1').get(id) as
      { id: string } | undefined;
    if (part)
      db.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify({ type: 'text', text: `Edited ${clock}` }), clock, part.id);
    return;
  }
  db.exec('BEGIN');
  for (const table of ['part', 'message']) db.prepare(`DELETE FROM ${table} WHERE session_id = ?`).run(id);
  db.prepare('DELETE FROM session WHERE id = ?').run(id);
  db.exec('COMMIT');
}

async function listing(services: Services): Promise<string[]> {
  const { sessions } = await services.client.listSessions({ includeChildren: true, limit: 1000 });
  return sessions.map((s) => `${s.key} ${s.messageCount} ${s.title} ${s.updatedAt} ${s.unreadable?.code ?? ''}`).sort();
}

describe('a watched OpenCode store under random writes', () => {
  it('lists what a fresh scan lists once the writes stop', async () => {
    const base = await mkdtemp(join(tmpdir(), 'sv-store-converges-'));
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
          const dir = join(base, `run-${++run}`);
          const root = join(dir, 'home');
          const storeDir = join(root, '.local', 'share', 'opencode');
          await mkdir(storeDir, { recursive: true });
          // OpenCode keeps its connection open while it runs.
          const db = createOpenCodeStore(join(storeDir, 'opencode.db'), CWD);
          const watching = createServices({ dataDir: join(dir, 'data'), shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: true, env: {} });
          try {
            await apply(db, { kind: 'add', session: 0 });
            await watching.start();
            await watching.whenScanned();
            for (const o of ops) await apply(db, o);
            const truth = await freshListing(root, join(dir, 'fresh'), listing);
            const seen = await settledListing(watching, truth, listing);
            expect(seen, JSON.stringify(ops)).toEqual(truth);
          } finally {
            await watching.close();
            db.close();
          }
        }),
        { numRuns: Number(process.env.SV_WATCH_RUNS ?? 5), ...(process.env.SV_WATCH_RUNS ? {} : { seed: 2026 }) },
      );
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  }, 600_000);
});
