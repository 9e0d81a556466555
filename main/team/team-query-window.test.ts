// Which places of a relevance search look the newest sessions up one by one: all of them by default, the title and the prompts only when the estimate says their words would fill the page from them.
import { describe, expect, it } from 'vitest';
import { parseTeamQuery, teamSearchSql, type MatchEstimate } from './team-query.ts';

/** How many places of the ranked statement read the window's sessions (each place's look-ups are `FROM win w`). */
function windowedPlaces(q: string, estimate?: MatchEstimate): number {
  const sql = teamSearchSql(parseTeamQuery(q, Date.UTC(2026, 0, 1)), { limit: 50, offset: 0, countUpTo: 200, ...(estimate ? { estimate } : {}) });
  return sql.text.split('FROM win w\n').length - 1;
}

describe('team search window by place', () => {
  it('looks the window up in every place without an estimate, or when every place would fill the page from it', () => {
    expect(windowedPlaces('heron')).toBe(3);
    expect(windowedPlaces('heron', { share: 1, wordShare: 1, titleShare: 1, commonIdent: false, readWhole: [] })).toBe(3);
    // An estimate from before the titles' and words' shares were given: as before.
    expect(windowedPlaces('heron', { share: 1, commonIdent: false, readWhole: [] })).toBe(3);
  });

  it('leaves the title out when few titles hold the words, and the prompts too when only identifiers would fill it', () => {
    expect(windowedPlaces('heron', { share: 1, wordShare: 1, titleShare: 0.01, commonIdent: false, readWhole: [] })).toBe(2);
    // Titles estimated at 0.11 of the sessions: at twice that, 1,005 sessions would give the 201 rows.
    expect(windowedPlaces('heron', { share: 1, wordShare: 1, titleShare: 0.11, commonIdent: false, readWhole: [] })).toBe(3);
    expect(windowedPlaces('heronwatch', { share: 0.3, wordShare: 0.01, titleShare: 0.01, commonIdent: true, readWhole: [] })).toBe(1);
  });
});
