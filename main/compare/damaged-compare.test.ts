// Damaged copies of every agent's sample sessions that the readers accept (each number past any count, or one value replaced by an odd one) compared with each other and with sound ones: a comparison the contract allows, as JSON and as `diff`'s text.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Comparison } from '../../shared/compare/comparison.ts';
import { compareSessions } from '../../shared/compare/compare.ts';
import type { Session } from '../../shared/session.ts';
import { damagedSampleSessions } from '../test-support/damaged-sessions.ts';
import { testTempDir } from '../test-support/temp-dir.ts';
import { formatComparisonText } from './text-report.ts';

describe('damaged sessions compared', () => {
  it('give a comparison the contract allows, in plain JSON, and its text with no NaN, Infinity or undefined', async () => {
    const sessions = await damagedSampleSessions(join(testTempDir('sv-damaged-compare-'), 'samples'));
    const faults: string[] = [];
    // Each with the next (often a damaged copy of the same file beside another damage, or the next file) and with the first.
    const pairs: Array<[Session, Session]> = sessions.flatMap((s, i) => [
      [s, sessions[(i + 1) % sessions.length] as Session],
      [sessions[0] as Session, s],
    ]);
    for (const [a, b] of pairs) {
      const where = `${a.key} against ${b.key}`;
      try {
        const comparison = compareSessions(a, b);
        const parsed = Comparison.safeParse(JSON.parse(JSON.stringify(comparison)));
        if (!parsed.success) faults.push(`${where}: ${parsed.error.message.slice(0, 300)}`);
        for (const all of [false, true]) {
          const text = formatComparisonText(comparison, { all });
          const odd = /\b(NaN|Infinity|undefined)\b/.exec(text);
          if (odd) faults.push(`${where}: the text says "${odd[0]}"`);
        }
      } catch (err) {
        faults.push(`${where}: ${err instanceof Error ? err.stack?.slice(0, 400) : String(err)}`);
      }
    }
    expect(faults).toEqual([]);
  }, 240_000);
});
