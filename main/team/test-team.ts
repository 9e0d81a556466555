// Test helpers for the team store: fixture sessions read by the real readers, and connections as the store's owner or as an account.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClientBase } from 'pg';
import type { Session } from '../../shared/session.ts';
import { inThreadLoader, type SessionLoader } from '../bundle/prepare-session.ts';
import { findReader } from '../sources/registry.ts';
import { fixturesOf } from '../test-support/source-fixtures.ts';
import { createAccount, type TeamRole } from './accounts.ts';
import { sessionJsonText, sha256Text } from './session-chunks.ts';
import { sessionRow } from './session-row.ts';
import { connectTeam, type TeamConnection } from './team-connection.ts';
import { MIGRATIONS } from './migrations.ts';
import { qualified, teamRoles } from './team-names.ts';
import { resolveTeamTarget } from './team-credentials.ts';

async function filesBelow(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesBelow(path)));
    else out.push(path);
  }
  return out.sort();
}

/** Every readable session of the given formats' fixtures (sources/<format>/fixtures/), read by the app's own readers. */
export async function fixtureSessions(formats: string[]): Promise<Session[]> {
  const sessions: Session[] = [];
  for (const format of formats) {
    for (const path of await filesBelow(fixturesOf(format))) {
      const reader = findReader(path);
      if (!reader) continue;
      const session = await reader.read(path).catch(() => null);
      if (session && !sessions.some((s) => s.key === session.key)) sessions.push(session);
    }
  }
  return sessions;
}

/** A loader over sessions held in memory, prepared on this thread as Share prepares them (the app's runs in a worker). */
export function memoryLoader(sessions: Session[]): SessionLoader {
  const byKey = new Map(sessions.map((s) => [s.key, s]));
  return inThreadLoader(async (key) => {
    const s = byKey.get(key);
    if (!s) throw new Error(`no session ${key}`);
    return structuredClone(s);
  });
}

/** Connects to `url` (its password taken from the URL, as SESSION_VAULT_TEAM_URL gives it). */
export function connectUrl(url: string): Promise<TeamConnection> {
  return connectTeam(resolveTeamTarget(undefined, { SESSION_VAULT_TEAM_URL: url }));
}

/** The same database as `url`, signed in as `user` with `password`. */
export function urlAs(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  return u.href;
}

/** Adds an account through the owner's connection and connects as it. */
export async function accountConnection(
  owner: TeamConnection,
  ownerUrl: string,
  name: string,
  role: TeamRole,
): Promise<{ conn: TeamConnection; token: string; url: string }> {
  const token = await createAccount(owner.client, name, role);
  const url = urlAs(ownerUrl, name, token);
  return { conn: await connectUrl(url), token, url };
}

/**
 * Writes `sessions` to a store of schema 3 or 4 as the push of that app wrote them (through the owner's `client`,
 * for `machine` of `account`): their rows, message chunks and search text hashed by its body alone, with no
 * message starts. Pushing with this app needs the current schema (a connection upgrades the store first).
 */
export async function writeAsBefore(client: ClientBase, machine: string, account: string, sessions: Session[]): Promise<void> {
  await client.query(`INSERT INTO session_vault.machines (label, account) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [machine, account]);
  for (const session of sessions) {
    const json = sessionJsonText(session);
    const row = sessionRow(json, sha256Text(json), Buffer.byteLength(json));
    await client.query(
      `INSERT INTO session_vault.sessions (machine, key, pushed_by, format, title, message_count, has_summary, idents, size_bytes, content_hash, session_head)
       VALUES ($1, $2, $3, $4, $5, $6, false, $7, $8, $9, $10)`,
      [machine, row.key, account, row.format, row.title, row.messageCount, row.idents, row.sizeBytes, row.contentHash, row.head],
    );
    for (const c of row.messages)
      await client.query(`INSERT INTO session_vault.session_messages (machine, key, chunk, sha256, body) VALUES ($1, $2, $3, $4, $5)`, [
        machine,
        row.key,
        c.chunk,
        c.sha256,
        c.body,
      ]);
    for (const c of row.texts)
      await client.query(`INSERT INTO session_vault.session_texts (machine, key, weight, seq, sha256, body) VALUES ($1, $2, $3, $4, $5, $6)`, [
        machine,
        row.key,
        c.weight,
        c.seq,
        sha256Text(c.body),
        c.body,
      ]);
  }
}

/** A store as an earlier app left it: the schema with migrations 1 to `version` applied and recorded, nothing else. */
export async function storeAtVersion(client: ClientBase, version: number): Promise<void> {
  const database = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]?.db ?? '';
  await client.query('CREATE SCHEMA session_vault');
  await client.query(
    `CREATE TABLE ${qualified('team_schema_version')} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), describe text NOT NULL)`,
  );
  for (const m of MIGRATIONS.filter((m) => m.version <= version)) {
    await m.apply(client, teamRoles(database));
    await client.query(`INSERT INTO ${qualified('team_schema_version')} (version, describe) VALUES ($1, $2)`, [m.version, m.describe]);
  }
}
