// Damaged copies of every agent's sample sessions (each number past any count, or one value replaced by an odd one) that the readers accept are pushed to a real team store: each is stored or skipped with a reason, and no push stops.
import { expect, it } from 'vitest';
import { damageableFiles, damagedSampleSessions } from '../test-support/damaged-sessions.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import { describeWithPostgres } from './postgres-suite.ts';
import { pushSessions } from './push.ts';
import { searchTeam } from './team-search.ts';
import { connectUrl, memoryLoader } from './test-team.ts';

describeWithPostgres('pushing damaged sessions', (pgs) => {
  it('stores every damaged session the readers accept, or skips it with a reason: no push stops', async () => {
    const sessions = await damagedSampleSessions(testTempDir('sv-damaged-push-'));
    expect(sessions.length).toBeGreaterThan(damageableFiles.length);

    const owner = await connectUrl(await pgs.freshDatabase());
    try {
      const report = await pushSessions({
        client: owner.client,
        machine: 'damaged',
        keys: sessions.map((s) => s.key),
        loader: memoryLoader(sessions),
        env: {},
        sources: false,
      });
      expect(report.pushed.length + report.skipped.length).toBe(sessions.length);
      for (const skipped of report.skipped) expect(skipped.reason).not.toBe('');
      expect((await searchTeam(owner.client, '', { limit: 1 })).total).toBe(report.pushed.length);
    } finally {
      await owner.close();
    }
  }, 240_000);
});
