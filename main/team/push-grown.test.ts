// A session that grew sends only what changed: its new and changed tail chunks of messages and search text, not its whole session.json; and a store of the earlier schema is converted in place.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { TEAM_SCHEMA_VERSION } from './migrations.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import { sessionJsonText } from './session-chunks.ts';
import type { TeamConnection } from './team-connection.ts';
import { storedSession } from './team-reader.ts';
import { searchTeam } from './team-search.ts';
import { teamText } from './team-text.ts';
import { accountConnection, connectUrl, memoryLoader, storeAtVersion } from './test-team.ts';

/** A long session: `turns` prompts and replies of a few hundred characters each. */
function longSession(id: string, turns: number): Session {
  const messages = Array.from({ length: turns * 2 }, (_, i) =>
    textMessage(i % 2 ? 'assistant' : 'user', `turn ${i >> 1} ${i % 2 ? 'reply' : 'prompt'}: ${'the ledger import keeps every posting balanced '.repeat(8)}`),
  );
  return makeSession(id, { messages, sourceFiles: [] });
}

/** The same session with `more` turns added at its end, one of them saying `word`. */
function grownBy(session: Session, more: number, word: string): Session {
  const added = Array.from({ length: more * 2 }, (_, i) => textMessage(i % 2 ? 'assistant' : 'user', `later turn ${i}: ${word} ${'x'.repeat(300)}`));
  return { ...session, messages: [...session.messages, ...added], updatedAt: '2026-01-03T10:00:00.000Z' };
}

const bytesOf = (s: Session) => Buffer.byteLength(sessionJsonText(s));

describeWithPostgres('team push, a grown session', (pgs) => {
  let ownerUrl: string;
  let owner: TeamConnection;
  let erin: TeamConnection;

  beforeAll(async () => {
    ownerUrl = await pgs.freshDatabase();
    owner = await connectUrl(ownerUrl);
    erin = (await accountConnection(owner, ownerUrl, 'erin', 'member')).conn;
  }, 30_000);

  afterAll(async () => {
    await erin?.close();
    await owner?.close();
  });

  const push = (session: Session) =>
    pushSessions({
      client: erin.client,
      machine: 'erin-box',
      keys: [session.key],
      loader: memoryLoader([session]),
      env: {},
      sources: false,
      messageChunkChars: 8192,
    });

  it('sends of a grown session its head and new tail chunks only, and the store then holds exactly the local session.json', async () => {
    const session = longSession('grows', 300);
    const first = await push(session);
    expect(first.pushed).toEqual([session.key]);
    expect(first.chunks.kept).toBe(0);
    expect(first.bytes).toBeGreaterThan(bytesOf(session) * 0.5);

    const grown = grownBy(session, 5, 'zanzibar');
    const growth = bytesOf(grown) - bytesOf(session);
    const second = await push(grown);
    expect(second.pushed).toEqual([grown.key]);
    // The head, the changed tail chunk and the new chunks: a small part of the 250 KB session, near its growth.
    expect(second.bytes).toBeLessThan(growth + 3 * 8192);
    expect(second.bytes).toBeLessThan(first.bytes / 5);
    expect(second.chunks.kept).toBeGreaterThan(second.chunks.sent);

    const stored = (await storedSession(erin.client, 'erin-box', grown.key)) as Session;
    expect(sessionJsonText(stored)).toBe(sessionJsonText(grown));
    const { rows } = await owner.client.query<{ content_hash: string }>(`SELECT content_hash FROM session_vault.sessions WHERE key = $1`, [grown.key]);
    expect(rows[0]?.content_hash).toBe(createHash('sha256').update(sessionJsonText(grown)).digest('hex'));
    // Its search text followed: the new words are found, the old ones still are.
    expect((await searchTeam(erin.client, 'zanzibar')).hits.map((h) => h.key)).toEqual([grown.key]);
    expect((await searchTeam(erin.client, '"posting balanced"')).hits.map((h) => h.key)).toEqual([grown.key]);

    // Pushed again as it is: nothing sent.
    const third = await push(grown);
    expect(third.unchanged).toEqual([grown.key]);
    expect(third.bytes).toBe(0);

    // Shrunk (a session rewritten shorter): chunks past its new end go.
    const shorter = { ...grown, messages: grown.messages.slice(0, 40) };
    await push(shorter);
    expect(sessionJsonText((await storedSession(erin.client, 'erin-box', grown.key)) as Session)).toBe(sessionJsonText(shorter));
    expect((await searchTeam(erin.client, 'zanzibar')).hits).toEqual([]);
  });
});

describeWithPostgres('team store schema 3', (pgs) => {
  it('converts the sessions a version-2 store holds: they read back the same and a grown one sends its tail only', async () => {
    const url = await pgs.freshDatabase();
    const session = longSession('old', 200);
    const json = sessionJsonText(session);
    // A store as the previous app made it: versions 1 and 2 only, session.json whole, search text numbered on one line.
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    try {
      await storeAtVersion(setup, 2);
      await setup.query(`INSERT INTO session_vault.machines (label, account) VALUES ('old-box', current_user)`);
      await setup.query(
        `INSERT INTO session_vault.sessions (machine, key, pushed_by, format, title, message_count, has_summary, idents, size_bytes, content_hash, session_json)
         VALUES ('old-box', $1, current_user, 'vizier', $2, $3, false, '', $4, $5, $6)`,
        [session.key, session.title, session.messages.length, Buffer.byteLength(json), createHash('sha256').update(json).digest('hex'), json],
      );
      const chunks = teamText(JSON.parse(json) as Session).chunks;
      for (const [seq, c] of chunks.entries())
        await setup.query(`INSERT INTO session_vault.session_texts (machine, key, seq, weight, body) VALUES ('old-box', $1, $2, $3, $4)`, [
          session.key,
          seq,
          c.weight,
          c.body,
        ]);
    } finally {
      await setup.end();
    }

    const owner = await connectUrl(url);
    try {
      expect(owner.schema).toEqual({ before: 2, after: TEAM_SCHEMA_VERSION });
      expect(sessionJsonText((await storedSession(owner.client, 'old-box', session.key)) as Session)).toBe(json);
      expect((await searchTeam(owner.client, '"ledger import"')).hits.map((h) => h.key)).toEqual([session.key]);
      const grown = grownBy(session, 2, 'quokka');
      const report = await pushSessions({
        client: owner.client,
        machine: 'old-box',
        keys: [grown.key],
        loader: memoryLoader([grown]),
        env: {},
        sources: false,
      });
      expect(report.bytes).toBeLessThan(bytesOf(grown) / 3);
      expect(report.chunks.kept).toBeGreaterThan(0);
      expect(sessionJsonText((await storedSession(owner.client, 'old-box', grown.key)) as Session)).toBe(sessionJsonText(grown));
      expect((await searchTeam(owner.client, 'quokka')).hits.map((h) => h.key)).toEqual([grown.key]);
    } finally {
      await owner.close();
    }
  });
});
