// One pooled connection to the team store for a piece of work, given back to the pool however the work ends.
import type pg from 'pg';

export async function withPoolClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}
