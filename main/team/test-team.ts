// Test helpers for the team store: fixture sessions read by the real readers, and connections as the store's owner or as an account.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Session } from '../../shared/session.ts';
import { inThreadLoader, type SessionLoader } from '../bundle/prepare-session.ts';
import { findReader } from '../sources/registry.ts';
import { fixturesOf } from '../test-support/source-fixtures.ts';
import { createAccount, type TeamRole } from './accounts.ts';
import { connectTeam, type TeamConnection } from './team-connection.ts';
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
