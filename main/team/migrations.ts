// The team store's schema, one migration per version: each runs inside the transaction that records it.
import type { ClientBase } from 'pg';
import type { Session } from '../../shared/session.ts';
import { version6, version7, version8, version9, version10, version11 } from './migrations-search.ts';
import { messageChunks, sessionHead, splitSessionJson } from './session-chunks.ts';
import { ident, literal, qualified, TEAM_SCHEMA, type TeamRoles } from './team-names.ts';
import { lz4Compression, machineRowsAccess } from './machine-rows.ts';

export interface Migration {
  version: number;
  /** What it adds, said for the log of a store's upgrades. */
  describe: string;
  apply(client: ClientBase, roles: TeamRoles): Promise<void>;
}

const S = ident(TEAM_SCHEMA);

/** Creates a group role unless the cluster has it (roles outlive databases: a store made again finds them). */
function ensureRole(name: string): string {
  return `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = ${literal(name)}) THEN CREATE ROLE ${ident(name)} NOLOGIN; END IF; END $$`;
}

async function version1(client: ClientBase, roles: TeamRoles): Promise<void> {
  const viewer = ident(roles.viewer);
  const member = ident(roles.member);
  const admin = ident(roles.admin);
  const accounts = qualified('accounts');
  const machines = qualified('machines');
  const sessions = qualified('sessions');
  const texts = qualified('session_texts');
  const owns = qualified('owns_machine');
  await client.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA ${S}`);
  // pg_trgm may have been installed before, in another schema: its operator class is named where it is.
  const trgm = await client.query<{ schema: string }>(`SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'`);
  const trgmOps = `${trgm.rows[0]?.schema ?? S}.gin_trgm_ops`;
  const statements = [
    ensureRole(roles.viewer),
    ensureRole(roles.member),
    ensureRole(roles.admin),
    `GRANT ${viewer} TO ${member}`,
    `GRANT ${member} TO ${admin}`,
    `CREATE TABLE ${accounts} (
       name text PRIMARY KEY,
       role text NOT NULL CHECK (role IN ('viewer', 'member', 'admin')),
       token_hash text,
       created_at timestamptz NOT NULL DEFAULT now(),
       revoked_at timestamptz
     )`,
    // Whoever creates the store owns it: its first admin (a table's owner is not bound by row-level security).
    `INSERT INTO ${accounts} (name, role) VALUES (current_user, 'admin')`,
    `CREATE TABLE ${machines} (
       label text PRIMARY KEY CHECK (label ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$'),
       account text NOT NULL REFERENCES ${accounts} (name),
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE ${sessions} (
       machine text NOT NULL REFERENCES ${machines} (label),
       key text NOT NULL,
       pushed_by text NOT NULL REFERENCES ${accounts} (name),
       pushed_at timestamptz NOT NULL DEFAULT now(),
       format text NOT NULL,
       title text NOT NULL,
       status text,
       outcome text,
       created_at timestamptz,
       updated_at timestamptz,
       model text,
       project_name text,
       project_path text,
       branch text,
       parent_key text,
       message_count integer NOT NULL,
       total_tokens bigint,
       cost_usd double precision,
       has_summary boolean NOT NULL,
       idents text NOT NULL,
       size_bytes integer NOT NULL,
       content_hash text NOT NULL,
       session_json text NOT NULL,
       PRIMARY KEY (machine, key)
     )`,
    `CREATE INDEX sessions_activity ON ${sessions} ((coalesce(updated_at, created_at)) DESC)`,
    `CREATE INDEX sessions_idents_trgm ON ${sessions} USING gin (idents ${trgmOps})`,
    `CREATE TABLE ${texts} (
       machine text NOT NULL,
       key text NOT NULL,
       seq integer NOT NULL,
       weight "char" NOT NULL CHECK (weight IN ('A', 'B', 'C')),
       body text NOT NULL,
       tsv tsvector GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, body), weight)) STORED,
       PRIMARY KEY (machine, key, seq),
       FOREIGN KEY (machine, key) REFERENCES ${sessions} (machine, key) ON DELETE CASCADE
     )`,
    `CREATE INDEX session_texts_tsv ON ${texts} USING gin (tsv)`,
    // The check every write policy makes: the machine is the current database user's, and that account may push.
    `CREATE FUNCTION ${owns}(label text) RETURNS boolean LANGUAGE sql STABLE AS $fn$
       SELECT EXISTS (SELECT 1 FROM ${machines} m JOIN ${accounts} a ON a.name = m.account
                      WHERE m.label = $1 AND a.name = current_user AND a.revoked_at IS NULL AND a.role IN ('member', 'admin'))
     $fn$`,
    `REVOKE ALL ON ALL TABLES IN SCHEMA ${S} FROM PUBLIC`,
    `GRANT USAGE ON SCHEMA ${S} TO ${viewer}`,
    `GRANT SELECT ON ${machines}, ${sessions}, ${texts}, ${qualified('team_schema_version')} TO ${viewer}`,
    // Token hashes stay with the owner: a viewer reads who is on the team, not how they sign in.
    `GRANT SELECT (name, role, created_at, revoked_at) ON ${accounts} TO ${viewer}`,
    `GRANT INSERT ON ${machines} TO ${member}`,
    `GRANT INSERT, UPDATE ON ${sessions} TO ${member}`,
    `GRANT INSERT, DELETE ON ${texts} TO ${member}`,
    `GRANT UPDATE, DELETE ON ${machines} TO ${admin}`,
    `GRANT DELETE ON ${sessions} TO ${admin}`,
    `GRANT UPDATE ON ${texts} TO ${admin}`,
    ...['machines', 'sessions', 'session_texts'].map((t) => `ALTER TABLE ${qualified(t)} ENABLE ROW LEVEL SECURITY`),
    `CREATE POLICY read ON ${machines} FOR SELECT TO ${viewer} USING (true)`,
    `CREATE POLICY claim ON ${machines} FOR INSERT TO ${member}
       WITH CHECK (account = current_user AND EXISTS (SELECT 1 FROM ${accounts} a WHERE a.name = current_user AND a.revoked_at IS NULL AND a.role IN ('member', 'admin')))`,
    `CREATE POLICY manage ON ${machines} FOR ALL TO ${admin} USING (true) WITH CHECK (true)`,
    `CREATE POLICY read ON ${sessions} FOR SELECT TO ${viewer} USING (true)`,
    `CREATE POLICY push ON ${sessions} FOR INSERT TO ${member} WITH CHECK (${owns}(machine) AND pushed_by = current_user)`,
    `CREATE POLICY repush ON ${sessions} FOR UPDATE TO ${member} USING (${owns}(machine)) WITH CHECK (${owns}(machine) AND pushed_by = current_user)`,
    `CREATE POLICY manage ON ${sessions} FOR ALL TO ${admin} USING (true) WITH CHECK (true)`,
    `CREATE POLICY read ON ${texts} FOR SELECT TO ${viewer} USING (true)`,
    `CREATE POLICY push ON ${texts} FOR INSERT TO ${member} WITH CHECK (${owns}(machine))`,
    `CREATE POLICY replace ON ${texts} FOR DELETE TO ${member} USING (${owns}(machine))`,
    `CREATE POLICY manage ON ${texts} FOR ALL TO ${admin} USING (true) WITH CHECK (true)`,
  ];
  for (const sql of statements) await client.query(sql);
}

/**
 * Source files (what a bundle carries beside session.json): each file's facts, and its redacted bytes in parts of
 * FILE_PART_BYTES, each with its SHA-256, so a file that grew sends only the parts that changed. Large values are
 * compressed with lz4 where the server has it (PostgreSQL 14+ built with lz4, as Debian's is), faster than the
 * default pglz to write and to read.
 */
async function version2(client: ClientBase, roles: TeamRoles): Promise<void> {
  const sessions = qualified('sessions');
  const files = qualified('session_files');
  const parts = qualified('file_parts');
  const compression = await lz4Compression(client);
  const statements = [
    ...(compression
      ? [
          `ALTER TABLE ${sessions} ALTER COLUMN session_json SET COMPRESSION lz4`,
          `ALTER TABLE ${qualified('session_texts')} ALTER COLUMN body SET COMPRESSION lz4`,
        ]
      : []),
    `CREATE TABLE ${files} (
       machine text NOT NULL,
       key text NOT NULL,
       path text NOT NULL,
       role text NOT NULL,
       size bigint NOT NULL,
       mtime_ms double precision,
       sha256 text NOT NULL,
       parts integer NOT NULL,
       PRIMARY KEY (machine, key, path),
       FOREIGN KEY (machine, key) REFERENCES ${sessions} (machine, key) ON DELETE CASCADE
     )`,
    `CREATE TABLE ${parts} (
       machine text NOT NULL,
       key text NOT NULL,
       path text NOT NULL,
       part integer NOT NULL,
       sha256 text NOT NULL,
       bytes bytea${compression} NOT NULL,
       PRIMARY KEY (machine, key, path, part),
       FOREIGN KEY (machine, key, path) REFERENCES ${files} (machine, key, path) ON DELETE CASCADE
     )`,
    ...machineRowsAccess(files, roles),
    ...machineRowsAccess(parts, roles),
  ];
  for (const sql of statements) await client.query(sql);
}

/** Sessions converted per round trip by version 3. */
const CONVERT_PAGE = 100;

/**
 * Session.json in a head and message chunks (session-chunks.ts), each chunk with its SHA-256, and the search text's
 * chunks numbered within their weight, each with its SHA-256: a session that grew sends its new and changed tail
 * chunks only. Existing sessions are converted here, with the same code that cuts them at a push, so the first
 * push after the upgrade finds their chunks as it would have stored them.
 */
async function version3(client: ClientBase, roles: TeamRoles): Promise<void> {
  const sessions = qualified('sessions');
  const messages = qualified('session_messages');
  const texts = qualified('session_texts');
  const compression = await lz4Compression(client);
  const statements = [
    `ALTER TABLE ${sessions} RENAME COLUMN session_json TO session_head`,
    `CREATE TABLE ${messages} (
       machine text NOT NULL,
       key text NOT NULL,
       chunk integer NOT NULL,
       sha256 text NOT NULL,
       body text${compression} NOT NULL,
       PRIMARY KEY (machine, key, chunk),
       FOREIGN KEY (machine, key) REFERENCES ${sessions} (machine, key) ON DELETE CASCADE
     )`,
    ...machineRowsAccess(messages, roles),
    // Search text: numbered within its weight (title, prompts, the rest were numbered on one line), and hashed.
    `ALTER TABLE ${texts} DROP CONSTRAINT session_texts_pkey`,
    `ALTER TABLE ${texts} ADD COLUMN sha256 text`,
    `UPDATE ${texts} t SET seq = t.seq - f.first, sha256 = encode(sha256(convert_to(t.body, 'UTF8')), 'hex')
       FROM (SELECT machine, key, weight, min(seq) AS first FROM ${texts} GROUP BY 1, 2, 3) f
      WHERE f.machine = t.machine AND f.key = t.key AND f.weight = t.weight`,
    `ALTER TABLE ${texts} ALTER COLUMN sha256 SET NOT NULL`,
    `ALTER TABLE ${texts} ADD PRIMARY KEY (machine, key, weight, seq)`,
  ];
  for (const sql of statements) await client.query(sql);
  // Each stored session.json becomes its head and chunks, a page of sessions at a time (keyset, in key order).
  let after: [string, string] = ['', ''];
  for (;;) {
    const { rows } = await client.query<{ machine: string; key: string; session_head: string }>(
      `SELECT machine, key, session_head FROM ${sessions} WHERE (machine, key) > ($1, $2) ORDER BY machine, key LIMIT ${CONVERT_PAGE}`,
      after,
    );
    if (!rows.length) break;
    for (const r of rows) {
      const session = JSON.parse(r.session_head) as Session;
      const split = splitSessionJson(r.session_head, session.messages.length) ?? { head: sessionHead(session), messages: messageChunks(session.messages) };
      await client.query(`UPDATE ${sessions} SET session_head = $3 WHERE machine = $1 AND key = $2`, [r.machine, r.key, split.head]);
      const chunks = split.messages;
      if (chunks.length)
        await client.query(`INSERT INTO ${messages} (machine, key, chunk, sha256, body) SELECT $1, $2, * FROM unnest($3::integer[], $4::text[], $5::text[])`, [
          r.machine,
          r.key,
          chunks.map((c) => c.chunk),
          chunks.map((c) => c.sha256),
          chunks.map((c) => c.body),
        ]);
    }
    const last = rows[rows.length - 1] as { machine: string; key: string };
    after = [last.machine, last.key];
  }
}

/**
 * What the team writes about its sessions, shared by everyone: each session's note and tags, and its structured
 * summary (overview, decisions, outcomes, open items, tags), each row naming the account that last wrote it and
 * when. Viewers read them; members and admins write them on any team session (not only their own machines'),
 * always as themselves: the database checks `written_by` is the signed-in account, active and not a viewer.
 */
async function version4(client: ClientBase, roles: TeamRoles): Promise<void> {
  const viewer = ident(roles.viewer);
  const member = ident(roles.member);
  const accounts = qualified('accounts');
  const sessions = qualified('sessions');
  const annotations = qualified('session_annotations');
  const summaries = qualified('session_summaries');
  const writes = qualified('writes_notes');
  const item = (column: string) => `${column} text[] NOT NULL DEFAULT '{}' CHECK (cardinality(${column}) <= 200)`;
  const statements = [
    // The check every write on notes and summaries makes: the current database user is an active member or admin.
    `CREATE FUNCTION ${writes}() RETURNS boolean LANGUAGE sql STABLE AS $fn$
       SELECT EXISTS (SELECT 1 FROM ${accounts} a WHERE a.name = current_user AND a.revoked_at IS NULL AND a.role IN ('member', 'admin'))
     $fn$`,
    `CREATE TABLE ${annotations} (
       machine text NOT NULL,
       key text NOT NULL,
       note text NOT NULL DEFAULT '' CHECK (length(note) <= 100000),
       tags text[] NOT NULL DEFAULT '{}' CHECK (cardinality(tags) <= 100),
       written_by text NOT NULL REFERENCES ${accounts} (name),
       written_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (machine, key),
       FOREIGN KEY (machine, key) REFERENCES ${sessions} (machine, key) ON DELETE CASCADE
     )`,
    `CREATE TABLE ${summaries} (
       machine text NOT NULL,
       key text NOT NULL,
       overview text NOT NULL CHECK (length(overview) BETWEEN 1 AND 20000),
       ${item('decisions')},
       ${item('outcomes')},
       ${item('open_items')},
       tags text[] NOT NULL DEFAULT '{}' CHECK (cardinality(tags) <= 100),
       written_by text NOT NULL REFERENCES ${accounts} (name),
       written_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (machine, key),
       FOREIGN KEY (machine, key) REFERENCES ${sessions} (machine, key) ON DELETE CASCADE
     )`,
    `GRANT SELECT ON ${annotations}, ${summaries} TO ${viewer}`,
    `GRANT INSERT, UPDATE, DELETE ON ${annotations}, ${summaries} TO ${member}`,
    // Admins are members too (GRANT member TO admin): the member policies are theirs as well.
    ...[annotations, summaries].flatMap((t) => [
      `ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`,
      `CREATE POLICY read ON ${t} FOR SELECT TO ${viewer} USING (true)`,
      `CREATE POLICY write ON ${t} FOR INSERT TO ${member} WITH CHECK (${writes}() AND written_by = current_user)`,
      `CREATE POLICY rewrite ON ${t} FOR UPDATE TO ${member} USING (${writes}()) WITH CHECK (${writes}() AND written_by = current_user)`,
      `CREATE POLICY remove ON ${t} FOR DELETE TO ${member} USING (${writes}())`,
    ]),
  ];
  for (const sql of statements) await client.query(sql);
}

/**
 * Where each message begins in a search-text chunk, so a hit opens at the message it matched: the character
 * offsets (code points, from 0) of the chunk's message starts and the message index of each (null for text of no
 * message). Rows pushed before have neither (null): their hits open at the top until a push sends them again,
 * which it does for every session that has such rows, found through the partial index (empty once all are sent).
 */
async function version5(client: ClientBase): Promise<void> {
  const texts = qualified('session_texts');
  const statements = [
    `ALTER TABLE ${texts} ADD COLUMN message_starts integer[], ADD COLUMN message_indexes integer[]`,
    `ALTER TABLE ${texts} ADD CONSTRAINT session_texts_starts_match CHECK (cardinality(message_starts) = cardinality(message_indexes))`,
    `CREATE INDEX session_texts_without_starts ON ${texts} (machine, key) WHERE message_starts IS NULL`,
  ];
  for (const sql of statements) await client.query(sql);
}

/** The bytes of one stored part of a source file (the last part of a file may be shorter). */
export const FILE_PART_BYTES = 1024 * 1024;

/** Every migration, in order; the last one's version is the schema this app writes. */
export const MIGRATIONS: Migration[] = [
  { version: 1, describe: 'accounts, machines, sessions, search text; row-level security', apply: version1 },
  { version: 2, describe: 'source files in parts; lz4 for large values', apply: version2 },
  { version: 3, describe: 'session.json as a head and hashed message chunks; hashed search-text chunks', apply: version3 },
  { version: 4, describe: "the team's shared notes, tags and summaries of its sessions, with who wrote them and when", apply: version4 },
  { version: 5, describe: 'where each message begins in the search text, so a hit opens at its message', apply: version5 },
  { version: 6, describe: 'narrow search documents per search-text chunk, and an index for the newest-first list', apply: version6 },
  { version: 7, describe: "the titles' search documents under a GIN index of their own, for relevance pages read in rank order", apply: version7 },
  { version: 8, describe: 'an index on sessions for each order a search can ask for (created, size, tokens, cost)', apply: version8 },
  { version: 9, describe: "the planner's estimates of search statements as the store's owner sees them, for how a search reads its page", apply: version9 },
  {
    version: 10,
    describe: "a trigram index on the project's name and path for project: lists; new search-text tsvectors compressed with lz4",
    apply: version10,
  },
  {
    version: 11,
    describe: "the prompts' search documents under a GIN index of their own, and statistics of the titles' words, for relevance pages read in rank order",
    apply: version11,
  },
];

export const TEAM_SCHEMA_VERSION = MIGRATIONS.length;
