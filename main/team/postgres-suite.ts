// Vitest helper: a describe block with its own throwaway PostgreSQL cluster; skipped with a printed reason where none is installed, failed in CI.
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { findPgBin, startCluster, type PgCluster } from './pg-cluster.ts';

export interface PostgresSuite {
  cluster(): PgCluster;
  /** A fresh, empty database in the cluster: its superuser URL (each test's team store apart from the others'). */
  freshDatabase(): Promise<string>;
}

let databases = 0;

/**
 * `describe(name, body)` with a cluster started before the block's tests and stopped (its folder removed) after.
 * Without PostgreSQL's server binaries the block is skipped with one printed line, unless CI=true, where a
 * missing server is a failure (.ci/run installs it).
 */
export function describeWithPostgres(name: string, body: (suite: PostgresSuite) => void): void {
  const bin = findPgBin();
  if (!bin) {
    const reason = 'no PostgreSQL server binaries (no /usr/lib/postgresql/*/bin/initdb, no SESSION_VAULT_PG_BIN)';
    if (process.env.CI === 'true') {
      describe(name, () => {
        it('has a PostgreSQL server to test against', () => {
          throw new Error(`${reason}: .ci/run installs Debian's postgresql; in CI this suite must run.`);
        });
      });
      return;
    }
    process.stdout.write(`[team store] skipping "${name}": ${reason}; install PostgreSQL 14+ (Debian: apt-get install postgresql) to run it.\n`);
    describe.skip(name, () => body({ cluster: () => undefined as never, freshDatabase: async () => '' }));
    return;
  }
  describe(name, () => {
    let cluster: PgCluster | undefined;
    beforeAll(async () => {
      cluster = await startCluster(bin);
    }, 60_000);
    afterAll(async () => {
      await cluster?.stop();
    });
    const current = () => {
      if (!cluster) throw new Error('the test cluster did not start');
      return cluster;
    };
    body({
      cluster: current,
      freshDatabase: async () => {
        const c = current();
        const name = `team_${process.pid}_${++databases}`;
        const admin = new pg.Client({ connectionString: c.url });
        await admin.connect();
        try {
          await admin.query(`CREATE DATABASE ${name}`);
        } finally {
          await admin.end();
        }
        return c.url.replace(/\/[^/]*$/, `/${name}`);
      },
    });
  });
}
