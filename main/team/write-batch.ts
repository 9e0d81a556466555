// Writes one batch of sessions to the team store in one transaction: the machine claimed, the rows upserted, their changed message chunks, search-text chunks and file parts replaced, their search documents made again.
import type { ClientBase } from 'pg';
import { queryBuffers } from './buffer-query.ts';
import { CLEAR_REPLACED_DOCS, DOCS_OF_WRITTEN, KEPT_DOCS_ACTIVITY } from './search-docs.ts';
import { qualified } from './team-names.ts';
import type { WireRow } from './push-prepare.ts';
import type { SessionWrite } from './stored-chunks.ts';

/** A source file of a pushed session: its facts, and the parts whose bytes changed since the store last had it. */
export interface FileWrite {
  key: string;
  /** The path the file goes by where it is shared (its original path, as a bundle names it). */
  path: string;
  role: string;
  size: number;
  mtimeMs: number | null;
  sha256: string;
  /** How many parts the file has now; stored parts at or past this number are removed. */
  parts: number;
  /** The parts to write (new or changed), with their bytes. */
  changed: Array<{ part: number; sha256: string; bytes: Buffer }>;
}

export interface PushBatch {
  rows: SessionWrite[];
  files: FileWrite[];
}

const SESSION_COLUMNS = [
  'key',
  'format',
  'title',
  'status',
  'outcome',
  'created_at',
  'updated_at',
  'model',
  'project_name',
  'project_path',
  'branch',
  'parent_key',
  'message_count',
  'total_tokens',
  'cost_usd',
  'has_summary',
  'idents',
  'size_bytes',
  'content_hash',
  'session_head',
] as const;

function sessionValues(r: WireRow): unknown[] {
  return [
    r.key,
    r.format,
    r.title,
    r.status,
    r.outcome,
    r.createdAt,
    r.updatedAt,
    r.model,
    r.projectName,
    r.projectPath,
    r.branch,
    r.parentKey,
    r.messageCount,
    r.totalTokens,
    r.costUsd,
    r.hasSummary,
    r.idents,
    r.sizeBytes,
    r.contentHash,
    r.head,
  ];
}

/**
 * At most this many parameters in one statement (PostgreSQL takes 65,535). Each value goes as a parameter of its
 * own: no array literal to escape on this side and parse on the server's. Measured on 1,000 generated
 * sessions (88 MB of session.json, 50 MB of search text), the batches took 14.9 s as unnest(text[]) and 10.5 s
 * as these multi-row VALUES. The bodies (session head, message and search-text chunks, file parts) are Buffers:
 * node-postgres sends a Buffer as it is, in binary format, which for a text column is its UTF-8 bytes, so no
 * string is encoded here (the loader's worker packed them, push-prepare.ts). The statements go through
 * `queryBuffers` (buffer-query.ts), which hands those Buffers to the socket as they are: node-postgres's own bind
 * copied each batch's bodies about four times into buffers it grew as it went (2.2 s of the main thread's 3.5 s
 * per 1,000 sessions, and much of its garbage collection).
 */
const MAX_PARAMS = 30_000;

/**
 * Runs `INSERT … VALUES (…), (…) <tail>` for `tuples` (each a row's values after the machine, which is $1),
 * as few statements as the parameter limit allows.
 */
async function insertRows(client: ClientBase, head: string, tail: string, machine: string, tuples: unknown[][], prefix = ''): Promise<void> {
  let i = 0;
  while (i < tuples.length) {
    const values: unknown[] = [machine];
    const rows: string[] = [];
    for (; i < tuples.length && values.length + (tuples[i]?.length ?? 0) <= MAX_PARAMS; i++) {
      const placeholders = (tuples[i] as unknown[]).map((v) => {
        values.push(v);
        return `$${values.length}`;
      });
      rows.push(`($1, ${prefix}${placeholders.join(', ')})`);
    }
    await queryBuffers(client, `${head} VALUES ${rows.join(', ')} ${tail}`, values);
  }
}

const CLAIM = `INSERT INTO ${qualified('machines')} (label, account) VALUES ($1, current_user) ON CONFLICT (label) DO NOTHING`;
const UPSERT_HEAD = `INSERT INTO ${qualified('sessions')} (machine, pushed_by, ${SESSION_COLUMNS.join(', ')})`;
const UPSERT_TAIL = `ON CONFLICT (machine, key) DO UPDATE SET pushed_by = EXCLUDED.pushed_by, pushed_at = now(), ${SESSION_COLUMNS.filter((n) => n !== 'key')
  .map((n) => `${n} = EXCLUDED.${n}`)
  .join(', ')}`;
/** A session's search-text chunks but those it keeps as they are (`<key>\n<weight><seq>`). */
const CLEAR_TEXT = `DELETE FROM ${qualified('session_texts')} t WHERE t.machine = $1 AND t.key = ANY($2::text[]) AND NOT (t.key || E'\\n' || t.weight::text || t.seq::text) = ANY($3::text[])`;
const TEXT_HEAD = `INSERT INTO ${qualified('session_texts')} (machine, key, weight, seq, sha256, body, message_starts, message_indexes)`;
const MESSAGE_HEAD = `INSERT INTO ${qualified('session_messages')} (machine, key, chunk, sha256, body)`;
const MESSAGE_TAIL = 'ON CONFLICT (machine, key, chunk) DO UPDATE SET sha256 = EXCLUDED.sha256, body = EXCLUDED.body';
/** Message chunks past a session's new last one. */
const DROP_MESSAGES = `DELETE FROM ${qualified('session_messages')} m USING unnest($2::text[], $3::integer[]) AS s(key, chunks)
  WHERE m.machine = $1 AND m.key = s.key AND m.chunk >= s.chunks`;
const FILE_HEAD = `INSERT INTO ${qualified('session_files')} (machine, key, path, role, size, mtime_ms, sha256, parts)`;
const FILE_TAIL =
  'ON CONFLICT (machine, key, path) DO UPDATE SET role = EXCLUDED.role, size = EXCLUDED.size, mtime_ms = EXCLUDED.mtime_ms, sha256 = EXCLUDED.sha256, parts = EXCLUDED.parts';
const PART_HEAD = `INSERT INTO ${qualified('file_parts')} (machine, key, path, part, sha256, bytes)`;
const PART_TAIL = 'ON CONFLICT (machine, key, path, part) DO UPDATE SET sha256 = EXCLUDED.sha256, bytes = EXCLUDED.bytes';
/** Files a session no longer has, and parts past a file's new end. */
const DROP_FILES = `DELETE FROM ${qualified('session_files')} f WHERE f.machine = $1 AND f.key = ANY($2::text[]) AND NOT (f.key || E'\\n' || f.path) = ANY($3::text[])`;
const DROP_PARTS = `DELETE FROM ${qualified('file_parts')} p USING unnest($2::text[], $3::text[], $4::integer[]) AS f(key, path, parts)
  WHERE p.machine = $1 AND p.key = f.key AND p.path = f.path AND p.part >= f.parts`;

/** Everything of the batch or nothing: one transaction, rolled back on any failure (a lost connection rolls back by itself). */
export async function writeBatch(client: ClientBase, machine: string, batch: PushBatch): Promise<void> {
  const { rows, files } = batch;
  const keys = rows.map((r) => r.row.key);
  await client.query('BEGIN');
  try {
    await client.query(CLAIM, [machine]);
    await insertRows(
      client,
      UPSERT_HEAD,
      UPSERT_TAIL,
      machine,
      rows.map((r) => sessionValues(r.row)),
      'current_user, ',
    );
    await insertRows(
      client,
      MESSAGE_HEAD,
      MESSAGE_TAIL,
      machine,
      rows.flatMap((r) => r.messages.map((c) => [r.row.key, c.chunk, c.sha256, c.body])),
    );
    await client.query(DROP_MESSAGES, [machine, keys, rows.map((r) => r.row.messages.length)]);
    const keptTexts = rows.flatMap((r) => r.keptTexts.map((c) => `${r.row.key}\n${c.weight}${c.seq}`));
    await client.query(CLEAR_TEXT, [machine, keys, keptTexts]);
    // Search documents (search-docs.ts) go and come with their chunks: each written chunk's from the tsvector its insert
    // computed; the kept ones' take the session's new activity.
    await client.query(CLEAR_REPLACED_DOCS, [machine, keys, keptTexts]);
    await insertRows(
      client,
      `WITH written AS (${TEXT_HEAD}`,
      DOCS_OF_WRITTEN,
      machine,
      rows.flatMap((r) => r.texts.map((c) => [r.row.key, c.weight, c.seq, c.sha256, c.body, c.starts, c.messages])),
    );
    await client.query(KEPT_DOCS_ACTIVITY, [machine, keys]);
    // Files: those the sessions have now stay (their changed parts rewritten, parts past their end removed), the rest go.
    const kept = files.map((f) => `${f.key}\n${f.path}`);
    await client.query(DROP_FILES, [machine, keys, kept]);
    await insertRows(
      client,
      FILE_HEAD,
      FILE_TAIL,
      machine,
      files.map((f) => [f.key, f.path, f.role, f.size, f.mtimeMs, f.sha256, f.parts]),
    );
    await client.query(DROP_PARTS, [machine, files.map((f) => f.key), files.map((f) => f.path), files.map((f) => f.parts)]);
    await insertRows(
      client,
      PART_HEAD,
      PART_TAIL,
      machine,
      files.flatMap((f) => f.changed.map((p) => [f.key, f.path, p.part, p.sha256, p.bytes])),
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
