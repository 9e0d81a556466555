// A team search hit names the message it matched, as a local hit does (so it opens there); a store of schema 4 gets the column, its old rows open at the top until a push sends them again.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { TEAM_SCHEMA_VERSION } from './migrations.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import { sessionJsonText, sha256Text } from './session-chunks.ts';
import { sessionRow } from './session-row.ts';
import type { TeamConnection } from './team-connection.ts';
import { qualified } from './team-names.ts';
import { searchTeam } from './team-search.ts';
import { accountConnection, connectUrl, memoryLoader, storeAtVersion, writeAsBefore } from './test-team.ts';

/**
 * Forty turns; prompts full of kangaroos (two UTF-16 units, one character each) before prompt 18 says quokka;
 * replies long enough to fill several search-text chunks, reply 35 says zanzibar.
 */
function harbourSession(id: string): Session {
  const messages = Array.from({ length: 40 }, (_, i) => {
    if (i % 2 === 0) return textMessage('user', i === 18 ? 'prompt 18: what does the quokka berth cost' : `prompt ${i}: ${'🦘 harbour '.repeat(30)}`);
    return textMessage('assistant', `reply ${i}: ${i === 35 ? 'zanzibar ' : ''}${'the berth schedule stays balanced '.repeat(120)}`);
  });
  return makeSession(id, { title: 'Marina bookings', messages, sourceFiles: [] });
}

const indexOf = async (client: pg.ClientBase, query: string) =>
  (await searchTeam(client, query, { snippets: true })).hits.map((h) => ({ key: h.key, messageIndex: h.messageIndex }));

describeWithPostgres('team search, the message a hit is in', (pgs) => {
  let ownerUrl: string;
  let owner: TeamConnection;
  let erin: TeamConnection;
  const session = harbourSession('marina');

  beforeAll(async () => {
    ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    erin = (await accountConnection(owner, ownerUrl, 'erin', 'member')).conn;
    await pushSessions({ client: erin.client, machine: 'erin-box', keys: [session.key], loader: memoryLoader([session]), env: {}, sources: false });
  }, 30_000);

  afterAll(async () => {
    await erin?.close();
    await owner?.close();
  });

  it('names the prompt or reply the words matched, past kangaroos and across chunks of a long session', async () => {
    const chunks = await owner.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${qualified('session_texts')} WHERE weight = 'C'`);
    expect(chunks.rows[0]?.n).toBeGreaterThan(2);
    expect(await indexOf(erin.client, 'zanzibar')).toEqual([{ key: session.key, messageIndex: 35 }]);
    expect(await indexOf(erin.client, 'quokka')).toEqual([{ key: session.key, messageIndex: 18 }]);
    expect(await indexOf(erin.client, '"quokka berth"')).toEqual([{ key: session.key, messageIndex: 18 }]);
  });

  it('names none for a title match or a filter alone', async () => {
    expect(await indexOf(erin.client, 'marina')).toEqual([{ key: session.key, messageIndex: null }]);
    expect(await indexOf(erin.client, 'machine:erin-box')).toEqual([{ key: session.key, messageIndex: null }]);
  });
});

describeWithPostgres('team store schema 5', (pgs) => {
  it('upgrades a version-4 store: its pushed sessions open at the top until a push sends their search text again, unchanged or not', async () => {
    const url = await pgs.freshDatabase();
    const session = harbourSession('old');
    const json = sessionJsonText(session);
    const row = sessionRow(json, sha256Text(json), Buffer.byteLength(json));
    // A store as the previous app made it: versions 1 to 4, the session as its push wrote it (search text hashed by its body alone).
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    try {
      await storeAtVersion(setup, 4);
      await writeAsBefore(setup, 'old-box', (await setup.query<{ u: string }>('SELECT current_user AS u')).rows[0]?.u ?? '', [session]);
    } finally {
      await setup.end();
    }

    const owner = await connectUrl(url);
    try {
      expect(owner.schema).toEqual({ before: 4, after: TEAM_SCHEMA_VERSION });
      const startless = async () =>
        (await owner.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${qualified('session_texts')} WHERE message_starts IS NULL`)).rows[0]?.n;
      expect(await startless()).toBe(row.texts.length);
      // Found as before, opened at the top.
      expect(await indexOf(owner.client, 'zanzibar')).toEqual([{ key: session.key, messageIndex: null }]);

      const hashOf = async () =>
        (await owner.client.query<{ h: string }>(`SELECT content_hash AS h FROM ${qualified('sessions')} WHERE key = $1`, [session.key])).rows[0]?.h;
      const push = () =>
        pushSessions({ client: owner.client, machine: 'old-box', keys: [session.key], loader: memoryLoader([session]), env: {}, sources: false });
      // The session did not change (same content hash), and still goes again: its search text lacked the starts.
      const again = await push();
      expect(await hashOf()).toBe(row.contentHash);
      expect(again.pushed).toEqual([session.key]);
      expect(await startless()).toBe(0);
      expect(await indexOf(owner.client, 'zanzibar')).toEqual([{ key: session.key, messageIndex: 35 }]);
      // And once it has them, an unchanged session sends nothing.
      const third = await push();
      expect(third.unchanged).toEqual([session.key]);
      expect(third.pushed).toEqual([]);
    } finally {
      await owner.close();
    }
  });
});
