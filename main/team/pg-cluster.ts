// A PostgreSQL cluster for tests and benchmarks: initdb in a temp folder (or a kept one), started on a free loopback port as a non-root user, removed at stop unless kept.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serverCpuMs } from './server-cpu.ts';

const run = promisify(execFile);

/** The superuser's name and password in a throwaway cluster (it listens on 127.0.0.1 only, and lives for one run). */
export const CLUSTER_SUPERUSER = 'postgres';
const SUPERUSER_PASSWORD = 'throwaway-superuser';

export interface PgCluster {
  port: number;
  /** The superuser's connection URL (password included: a throwaway cluster on loopback). */
  url: string;
  /** A URL for `user`/`password` on database `database` (default: `postgres`). */
  urlFor(user: string, password: string, database?: string): string;
  /** CPU the server has used so far, in milliseconds (Linux; null elsewhere): for benchmarks on a busy machine. */
  cpuMs(): Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * The folder holding initdb and pg_ctl: `SESSION_VAULT_PG_BIN` when set, else the newest of Debian's
 * `/usr/lib/postgresql/<major>/bin`; null when there is none.
 */
export function findPgBin(env: NodeJS.ProcessEnv = process.env): string | null {
  const given = env.SESSION_VAULT_PG_BIN;
  if (given) return existsSync(join(given, 'initdb')) ? given : null;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const majors = readdirSync(base)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(base, majors[0], 'bin') : null;
}

/** A port nobody listens on now, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The user the server runs as: PostgreSQL refuses to run as root, so root hands it to `postgres`; anyone else runs it as themselves (null). */
async function resolveServerUser(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const { stdout } = await run('getent', ['passwd', 'postgres']).catch(() => ({ stdout: '' }));
  const fields = stdout.trim().split(':');
  if (fields.length < 4) throw new Error('Running as root, but there is no "postgres" user to run the test server as (install Debian\'s postgresql).');
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/** Runs a PostgreSQL program as the server's user (through runuser when we are root). */
function asServerUser(owner: { uid: number; gid: number } | null, program: string, args: string[]) {
  return owner ? run('runuser', ['-u', 'postgres', '--', program, ...args]) : run(program, args);
}

/**
 * Starts a fresh cluster: initdb (no fsync, password auth on TCP) into a new temp folder owned by the
 * server's user, then pg_ctl start on a free 127.0.0.1 port with its socket in that folder. With `keep` (a folder,
 * for a benchmark's large store reused across runs), the cluster lives there: made on the first start, started
 * again as it was on the next, and left in place at stop.
 */
export async function startCluster(bin: string, keep?: string): Promise<PgCluster> {
  const owner = await resolveServerUser();
  if (keep) mkdirSync(keep, { recursive: true });
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'sv-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${SUPERUSER_PASSWORD}\n`, { mode: 0o600 });
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(pwfile, owner.uid, owner.gid);
  }
  const superuser = owner ? CLUSTER_SUPERUSER : userInfo().username;
  const cleanup = () => (keep ? undefined : rmSync(dir, { recursive: true, force: true }));
  const made = keep !== undefined && existsSync(join(data, 'PG_VERSION'));
  // A kept cluster a killed run left running is stopped first (it would hold the folder).
  if (made) await asServerUser(owner, join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-s', '-w']).catch(() => undefined);
  else
    try {
      await asServerUser(owner, join(bin, 'initdb'), [
        '-D',
        data,
        '-N',
        '-U',
        superuser,
        `--pwfile=${pwfile}`,
        '--auth-local=trust',
        '--auth-host=scram-sha-256',
        '-E',
        'UTF8',
        '--locale=C',
      ]);
    } catch (err) {
      cleanup();
      throw new Error(`initdb failed: ${String((err as { stderr?: string }).stderr ?? err).trim()}`, { cause: err });
    }
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=40 -c shared_buffers=32MB`;
    try {
      await asServerUser(owner, join(bin, 'pg_ctl'), ['start', '-D', data, '-w', '-t', '30', '-s', '-l', join(dir, 'server.log'), '-o', options]);
    } catch (err) {
      lastError = String((err as { stderr?: string }).stderr ?? err).trim();
      continue;
    }
    const urlFor = (user: string, password: string, database = 'postgres') =>
      `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
    return {
      port,
      url: urlFor(superuser, SUPERUSER_PASSWORD),
      urlFor,
      cpuMs: () => serverCpuMs(data),
      stop: async () => {
        await asServerUser(owner, join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', keep ? 'fast' : 'immediate', '-s', '-w']).catch(() => undefined);
        cleanup();
      },
    };
  }
  cleanup();
  throw new Error(`pg_ctl could not start the test server: ${lastError}`);
}
