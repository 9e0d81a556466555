// The planner's estimate of a team search's matches: a common word estimated to match far more sessions than a rare one, a title's word in far more titles than a word of the text, and a viewer's search (row-level security hides the statistics from its own plans) steered by the same estimates as the owner's.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeSession, textMessage } from '../search-index/test-sessions.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import type { TeamConnection } from './team-connection.ts';
import { parseTeamQuery } from './team-query.ts';
import { estimateMatches } from './team-search-window.ts';
import { accountConnection } from './test-team.ts';
import { STORE_KINDS, storeHolding } from './test-store-kinds.ts';

// Every session holds "harbor" and "tide" (this one in its title alone); one in forty holds "quillwort".
const sessions = Array.from({ length: 40 }, (_, i) =>
  makeSession(`s${i}`, {
    title: `Tide log ${i}`,
    sourceFiles: [],
    messages: [textMessage('assistant', `the harbor at dawn, entry ${i}${i === 7 ? ' with quillwort by the quay' : ''}`)],
  }),
);

describeWithPostgres('team search estimates', (pgs) => {
  let owner: TeamConnection;
  let viewer: TeamConnection;

  beforeAll(async () => {
    const store = await storeHolding(pgs, STORE_KINDS[0] as (typeof STORE_KINDS)[number], 'quay', sessions);
    owner = store.owner;
    await owner.client.query('ANALYZE session_vault.session_docs, session_vault.sessions');
    viewer = (await accountConnection(owner, store.url, 'reader', 'viewer')).conn;
  }, 30_000);

  afterAll(async () => {
    await viewer?.close();
    await owner?.close();
  });

  it('estimates a common word in far more sessions than a rare one, leaving a common word out as far fewer, the same for a viewer as for the owner', async () => {
    const estimate = async (conn: TeamConnection, q: string) => await estimateMatches(conn.client, parseTeamQuery(q));
    const common = await estimate(owner, 'harbor');
    const rare = await estimate(owner, 'quillwort');
    expect(common?.share).toBeGreaterThan(0.5);
    expect(rare?.share).toBeLessThan((common?.share ?? 0) / 4);
    // Leaving out a word every session holds leaves far fewer; a rare one, nearly all. A rare word's sessions are read whole.
    const withoutCommon = await estimate(owner, 'harbor -harbor');
    expect(withoutCommon?.share).toBeLessThan((common?.share ?? 0) / 2);
    const withoutRare = await estimate(owner, 'harbor -quillwort');
    expect(withoutRare?.share).toBeGreaterThan(0.5);
    expect(withoutRare?.readWhole).toEqual([1]);
    for (const q of ['harbor', 'quillwort', 'harbor -quillwort']) expect(await estimate(viewer, q), q).toEqual(await estimate(owner, q));
    expect(await estimate(owner, '-harbor')).toBeNull();
  });

  it('estimates a word every title holds in far more titles than a word of the text alone, the same for a viewer', async () => {
    const estimate = async (conn: TeamConnection, q: string) => await estimateMatches(conn.client, parseTeamQuery(q));
    const inTitles = await estimate(owner, 'tide');
    const inText = await estimate(owner, 'harbor');
    expect(inTitles?.titleShare).toBeGreaterThan(0.5);
    expect(inText?.wordShare).toBeGreaterThan(0.5);
    expect(inText?.titleShare).toBeLessThan(0.2);
    // Held in titles and in the text: at most the words' share; a negated word every session holds leaves next to none.
    const both = await estimate(owner, 'tide harbor');
    expect(both?.titleShare).toBeGreaterThan(0.5);
    expect(both?.titleShare).toBeLessThanOrEqual(both?.wordShare ?? 0);
    expect((await estimate(owner, 'tide -harbor'))?.titleShare).toBeLessThan((inTitles?.titleShare ?? 0) / 2);
    for (const q of ['tide', 'harbor', 'tide -harbor']) expect(await estimate(viewer, q), q).toEqual(await estimate(owner, q));
  });
});
