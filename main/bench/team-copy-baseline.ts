// The team bench's baseline: PostgreSQL's own COPY (psql \copy) of exactly the rows a push stored, into an empty store of the same schema.
import { execFile } from 'node:child_process';
import { rm, stat } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { childrenCpuMs } from '../team/server-cpu.ts';

const run = promisify(execFile);

/** The team store's tables in the order their foreign keys need, each with the columns a push writes. */
const TABLES: Array<[string, string]> = [
  ['machines', 'label, account, created_at'],
  [
    'sessions',
    'machine, key, pushed_by, pushed_at, format, title, status, outcome, created_at, updated_at, model, project_name, project_path, branch, parent_key, message_count, total_tokens, cost_usd, has_summary, idents, size_bytes, content_hash, session_head',
  ],
  ['session_messages', 'machine, key, chunk, sha256, body'],
  ['session_texts', 'machine, key, weight, seq, sha256, body, message_starts, message_indexes'],
  // The search documents a push writes beside each chunk (schema 6, search-docs.ts): rows of the push as the others.
  ['session_docs', 'machine, key, weight, seq, activity, words'],
  ['session_files', 'machine, key, path, role, size, mtime_ms, sha256, parts'],
  ['file_parts', 'machine, key, path, part, sha256, bytes'],
];

export interface CopyBaseline {
  ms: number;
  /** CPU the server used for the COPYs, and psql (null without /proc). */
  serverCpuMs: number | null;
  psqlCpuMs: number | null;
  /** The machine's 1-minute load average when the COPYs ended. */
  loadAvg: number;
  /** Bytes of the COPY files (PostgreSQL's binary format): what crossed to the server. */
  bytes: number;
  perTableMs: Record<string, number>;
}

/**
 * Dumps the rows of `machine` from the store at `fromUrl` with COPY … TO (binary), then times COPY … FROM of the
 * same files into the empty store at `toUrl` (schema already made, same indexes and generated columns), table by
 * table, through psql as a user would load them. Accounts are made first (outside the timing), as the rows name them.
 */
export async function copyBaseline(
  psql: string,
  fromUrl: string,
  toUrl: string,
  machine: string,
  dir: string,
  serverCpu: () => Promise<number | null>,
): Promise<CopyBaseline> {
  const files: string[] = [];
  let bytes = 0;
  const where = (table: string) => (table === 'machines' ? `label = '${machine}'` : `machine = '${machine}'`);
  for (const [table, columns] of TABLES) {
    const file = join(dir, `${table}.copy`);
    await run(psql, [
      fromUrl,
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      `\\copy (SELECT ${columns} FROM session_vault.${table} WHERE ${where(table)}) TO '${file}' WITH (FORMAT binary)`,
    ]);
    bytes += (await stat(file)).size;
    files.push(file);
  }
  const perTableMs: Record<string, number> = {};
  let ms = 0;
  const server0 = await serverCpu();
  const psql0 = await childrenCpuMs();
  for (const [i, [table, columns]] of TABLES.entries()) {
    const t0 = performance.now();
    await run(psql, [toUrl, '-v', 'ON_ERROR_STOP=1', '-c', `\\copy session_vault.${table} (${columns}) FROM '${files[i]}' WITH (FORMAT binary)`], {
      maxBuffer: 1024 * 1024,
    });
    const took = performance.now() - t0;
    perTableMs[table] = took;
    ms += took;
  }
  const server1 = await serverCpu();
  const psql1 = await childrenCpuMs();
  for (const file of files) await rm(file, { force: true });
  const delta = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);
  return { ms, bytes, perTableMs, serverCpuMs: delta(server0, server1), psqlCpuMs: delta(psql0, psql1), loadAvg: loadavg()[0] ?? 0 };
}
