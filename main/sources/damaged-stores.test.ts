// Damaged copies of the sample SQLite stores (a cell of another type, a JSON cell with a field changed or gone, a row deleted) list and read into valid sessions or fail with a reason, never with a reader's own TypeError or RangeError.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Session } from '../../shared/session.ts';
import { resolveReader } from './recognize.ts';
import { UnreadableError } from './types.ts';
import { samplesDir } from '../test-support/samples.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import { SAMPLE_SESSION_FORMATS } from '../test-support/sample-roles.ts';
import { oddValue, damageJsonValue } from '../test-support/damage.ts';

const manifest = (JSON.parse(readFileSync(join(samplesDir, 'manifest.json'), 'utf8')) as { files: Array<{ path: string; format: string }> }).files;
const stores = manifest.filter((f) => /SQLite/.test(f.format) && f.format in SAMPLE_SESSION_FORMATS && !f.path.startsWith('malformed/'));

type CellDamage =
  | { kind: 'cell'; table: number; row: number; column: number; value: unknown; inJson: boolean; at: number; remove: boolean }
  | { kind: 'delete-row'; table: number; row: number };

const cellDamage: fc.Arbitrary<CellDamage> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('cell' as const),
      table: fc.nat(),
      row: fc.nat(),
      column: fc.nat(),
      value: oddValue,
      inJson: fc.boolean(),
      at: fc.nat(),
      remove: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-row' as const), table: fc.nat(), row: fc.nat() }) },
);

/** A value as SQLite stores it: numbers, text and null as they are, anything else as its JSON text. */
function cellValue(value: unknown): string | number | null {
  if (value === null || typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return JSON.stringify(value);
}

function damageStore(path: string, d: CellDamage): string {
  const db = new DatabaseSync(path);
  try {
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>
    ).map((t) => t.name);
    if (!tables.length) return 'no tables';
    const table = tables[d.table % tables.length]!;
    const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
    const select = db.prepare(`SELECT rowid AS rid, * FROM ${q(table)} ORDER BY rowid`);
    select.setReadBigInts(true); // an earlier damage may have left an integer past 2^53
    const rows = select.all() as Array<Record<string, unknown>>;
    if (!rows.length) return `${table}: empty`;
    const row = rows[d.row % rows.length]!;
    if (d.kind === 'delete-row') {
      try {
        db.prepare(`DELETE FROM ${q(table)} WHERE rowid = ?`).run(row.rid as bigint);
      } catch {
        return `${table}: row ${String(row.rid)} kept by a constraint`;
      }
      return `${table}: row ${String(row.rid)} deleted`;
    }
    const columns = Object.keys(row).filter((c) => c !== 'rid');
    const column = columns[d.column % columns.length]!;
    let value: string | number | null = cellValue(d.value);
    const current = row[column];
    if (d.inJson && typeof current === 'string' && /^\s*[[{]/.test(current)) {
      try {
        value = JSON.stringify(damageJsonValue(JSON.parse(current), d.at, d.remove ? undefined : { value: d.value }));
      } catch {
        // not JSON after all: the odd value replaces the cell
      }
    }
    try {
      db.prepare(`UPDATE ${q(table)} SET ${q(column)} = ? WHERE rowid = ?`).run(value, row.rid as bigint);
    } catch {
      return `${table}.${column}: refused by a constraint`;
    }
    return `${table}.${column} of row ${String(row.rid)} = ${String(value).slice(0, 80)}`;
  } finally {
    db.close();
  }
}

describe('damaged sample stores', () => {
  it.each(stores.map((f) => [f.path]))('%s lists and reads valid sessions, or refuses with a reason, whatever cell is damaged', async (path) => {
    // SV_DAMAGE_RUNS=500 explores further, from a new seed each time (fast-check prints the seed of a failure).
    const runs = Number(process.env.SV_DAMAGE_RUNS ?? 25);
    const dir = testTempDir('sv-damaged-store-');
    const abs = join(dir, path.replaceAll('/', '_'));
    const reader = await resolveReader(join(samplesDir, path));
    expect(reader?.container).toBeTruthy();
    await fc.assert(
      fc.asyncProperty(fc.array(cellDamage, { minLength: 1, maxLength: 3 }), async (damages) => {
        copyFileSync(join(samplesDir, path), abs);
        const done = damages.map((d) => damageStore(abs, d));
        const container = reader!.container!;
        try {
          const listed = await container.list(abs);
          for (const entry of listed) {
            let session: unknown;
            try {
              session = await container.readOne(abs, entry.id);
            } catch (err) {
              if (err instanceof UnreadableError) continue;
              throw err;
            }
            const parsed = Session.safeParse(session);
            expect(parsed.success, `${entry.id} after ${done.join('; ')}: ${parsed.error?.message.slice(0, 300)}`).toBe(true);
            expect(JSON.parse(JSON.stringify(session))).toEqual(session);
          }
        } catch (err) {
          if (!(err instanceof UnreadableError)) throw new Error(`after ${done.join('; ')}: ${String(err)}`, { cause: err });
        }
      }),
      { numRuns: runs, ...(process.env.SV_DAMAGE_RUNS ? {} : { seed: 2026 }) },
    );
  });
});
