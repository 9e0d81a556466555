// The throwaway cluster the team tests and bench run against: it serves queries, and says how much CPU it has used.
import pg from 'pg';
import { expect, it } from 'vitest';
import { describeWithPostgres } from './postgres-suite.ts';

describeWithPostgres('throwaway PostgreSQL cluster', (pgs) => {
  it('tells how much CPU its server has used, what the team bench reads beside wall time', async () => {
    // A cluster that has only just started may have used less than one 10 ms clock tick: read as 0, not null.
    const before = await pgs.cluster().cpuMs();
    expect(before).not.toBeNull();
    expect(before).toBeGreaterThanOrEqual(0);
    const client = new pg.Client({ connectionString: await pgs.freshDatabase() });
    await client.connect();
    try {
      await client.query('SELECT count(*) FROM generate_series(1, 3000000)');
    } finally {
      await client.end();
    }
    // The backend that ran it has ended: its time is counted through the postmaster that reaped it.
    expect(await pgs.cluster().cpuMs()).toBeGreaterThan(before as number);
  });
});
