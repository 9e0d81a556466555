// Writes one batch of sessions to the team store in one transaction: the machine claimed, the rows upserted, their search text replaced.
import type { ClientBase } from 'pg';
import { qualified } from './team-names.ts';
import type { SessionRow } from './session-row.ts';

const COLUMNS = [
  ['key', 'text'],
  ['format', 'text'],
  ['title', 'text'],
  ['status', 'text'],
  ['outcome', 'text'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['model', 'text'],
  ['project_name', 'text'],
  ['project_path', 'text'],
  ['branch', 'text'],
  ['parent_key', 'text'],
  ['message_count', 'integer'],
  ['total_tokens', 'bigint'],
  ['cost_usd', 'double precision'],
  ['has_summary', 'boolean'],
  ['idents', 'text'],
  ['size_bytes', 'integer'],
  ['content_hash', 'text'],
  ['session_json', 'text'],
] as const;

function columnValues(rows: SessionRow[]): unknown[][] {
  return [
    rows.map((r) => r.key),
    rows.map((r) => r.format),
    rows.map((r) => r.title),
    rows.map((r) => r.status),
    rows.map((r) => r.outcome),
    rows.map((r) => r.createdAt),
    rows.map((r) => r.updatedAt),
    rows.map((r) => r.model),
    rows.map((r) => r.projectName),
    rows.map((r) => r.projectPath),
    rows.map((r) => r.branch),
    rows.map((r) => r.parentKey),
    rows.map((r) => r.messageCount),
    rows.map((r) => r.totalTokens),
    rows.map((r) => r.costUsd),
    rows.map((r) => r.hasSummary),
    rows.map((r) => r.idents),
    rows.map((r) => r.sizeBytes),
    rows.map((r) => r.contentHash),
    rows.map((r) => r.json),
  ];
}

const names = COLUMNS.map(([name]) => name);
/** One statement for the whole batch: each column an array parameter, unnested into rows. */
const UPSERT = `INSERT INTO ${qualified('sessions')} (machine, pushed_by, ${names.join(', ')})
  SELECT $1, current_user, u.* FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')}) AS u(${names.join(', ')})
  ON CONFLICT (machine, key) DO UPDATE SET pushed_by = EXCLUDED.pushed_by, pushed_at = now(), ${names
    .filter((n) => n !== 'key')
    .map((n) => `${n} = EXCLUDED.${n}`)
    .join(', ')}`;

const CLAIM = `INSERT INTO ${qualified('machines')} (label, account) VALUES ($1, current_user) ON CONFLICT (label) DO NOTHING`;
const CLEAR_TEXT = `DELETE FROM ${qualified('session_texts')} WHERE machine = $1 AND key = ANY($2::text[])`;
const INSERT_TEXT = `INSERT INTO ${qualified('session_texts')} (machine, key, seq, weight, body)
  SELECT $1, u.key, u.seq, u.weight, u.body FROM unnest($2::text[], $3::integer[], $4::"char"[], $5::text[]) AS u(key, seq, weight, body)`;

/** Everything of `rows` or nothing: one transaction, rolled back on any failure (a lost connection rolls back by itself). */
export async function writeBatch(client: ClientBase, machine: string, rows: SessionRow[]): Promise<void> {
  const keys: string[] = [];
  const seqs: number[] = [];
  const weights: string[] = [];
  const bodies: string[] = [];
  for (const row of rows) {
    row.chunks.forEach((chunk, seq) => {
      keys.push(row.key);
      seqs.push(seq);
      weights.push(chunk.weight);
      bodies.push(chunk.body);
    });
  }
  await client.query('BEGIN');
  try {
    await client.query(CLAIM, [machine]);
    await client.query(UPSERT, [machine, ...columnValues(rows)]);
    await client.query(CLEAR_TEXT, [machine, rows.map((r) => r.key)]);
    if (keys.length) await client.query(INSERT_TEXT, [machine, keys, seqs, weights, bodies]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
