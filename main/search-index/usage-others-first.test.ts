// A word in most files: the others worked out in memory (usage-others-first.ts) are the files storeScope and storeOthers count out, the scope counts the same files (sub-agents of matched parents, kept copies, files with no session row), and the dashboard shows what the hourly rows show.
import { describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { syntheticSession } from '../bench/usage-dashboard.ts';
import { Prng } from '../bench/prng.ts';
import { SessionIndex } from './index-store.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { catalogueSource, usageScope } from './usage-match.ts';
import { storeOthersFirst } from './usage-others-first.ts';
import { OTHERS_TABLE, storeOthers, storeScope, type StoredScope } from './usage-scope-table.ts';
import { dashboardBothWays, putWithUsage, VAULT, vaultCatalogue } from './usage-test-catalogue.ts';

const NOW = Date.UTC(2026, 10, 1);
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The session recording a rate limit at its last activity (as Codex's do). */
const limited = (s: Session): Session => ({
  ...s,
  extra: { ...s.extra, rateLimits: { at: s.updatedAt, windows: [{ name: 'primary', usedPercent: 40, windowMinutes: 300, resetsAt: null }] } },
});

/** The bench's sessions, with kept copies of some (shadowed by their live file), sub-agents for a quarter of the Claude ones, and rate limits on every fifth. */
function filled(sessions: number): IndexedCatalogue {
  const catalogue = vaultCatalogue(new SessionIndex(':memory:'));
  const rng = new Prng(5);
  for (let n = 0; n < sessions; n++) {
    const made = syntheticSession(rng, n);
    const s = n % 5 === 0 ? limited(made) : made;
    const path = s.sourceFiles[0]?.path as string;
    putWithUsage(catalogue, path, s);
    if (n % 13 === 0) putWithUsage(catalogue, `${VAULT}${s.key}/source${path}`, s);
    if (s.format === 'claude-code' && rng.next() < 0.25) {
      const sub = syntheticSession(rng, sessions + n, s.key);
      putWithUsage(catalogue, sub.sourceFiles[0]?.path as string, sub);
    }
  }
  catalogue.index.flush();
  return catalogue;
}

const ids = (catalogue: IndexedCatalogue, sql: string) => (catalogue.index.prepared(sql).all() as Array<{ id: number }>).map((r) => r.id);
/** The files a stored scope counts, by its condition. */
const counted = (catalogue: IndexedCatalogue, stored: StoredScope) =>
  ids(catalogue, `SELECT f.id AS id FROM files f WHERE ${stored.scope.cond('f.id')} ORDER BY f.id`);
const topLevel = (catalogue: IndexedCatalogue, stored: StoredScope) =>
  ids(catalogue, `SELECT f.id AS id FROM files f WHERE ${stored.scope.sessionCond('f.id')} ORDER BY f.id`);
const others = (catalogue: IndexedCatalogue) => ids(catalogue, `SELECT id FROM ${OTHERS_TABLE} ORDER BY id`);

/** What each way stores for `query`: the counted files, the top-level ones, the others, and how many files it says it counts. */
function bothWays(catalogue: IndexedCatalogue, query: string) {
  const source = catalogueSource(catalogue, () => null);
  const scope = usageScope(source, query, undefined, NOW);
  const fast = storeOthersFirst(source, scope);
  if (!fast) return null;
  const fastSets = { files: fast.files, counted: counted(catalogue, fast), topLevel: topLevel(catalogue, fast), others: others(catalogue) };
  const slow = storeScope(source, scope);
  storeOthers(source);
  return [fastSets, { files: slow.files, counted: counted(catalogue, slow), topLevel: topLevel(catalogue, slow), others: others(catalogue) }] as const;
}

describe('the others of a word in most files, worked out before any match is written', () => {
  const catalogue = filled(240);

  it.each(['parser', 'cache', 'parser cache', 'laude-opu'])('are for %s the files every match and its sub-agents leave out', (query) => {
    const sets = bothWays(catalogue, query);
    expect(sets).not.toBeNull();
    const [fast, slow] = sets!;
    expect(fast).toStrictEqual(slow);
    expect(fast.others.length).toBeGreaterThan(3);
    expect(fast.files).toBe(fast.counted.length);
  });

  it('count a sub-agent whose parent matches though it does not, and leave out kept copies shadowed by their live file', () => {
    const [fast] = bothWays(catalogue, 'parser')!;
    const withWord = new Set(
      ids(catalogue, `SELECT rowid AS id FROM docs WHERE docs MATCH '"parser"' UNION SELECT rowid FROM idents WHERE idents MATCH '"parser"'`),
    );
    const subAgentsByParent = ids(catalogue, 'SELECT id FROM files WHERE parent_key IS NOT NULL').filter(
      (id) => !withWord.has(id) && fast.counted.includes(id),
    );
    expect(subAgentsByParent.length).toBeGreaterThan(0);
    const copies = ids(catalogue, `SELECT id FROM files WHERE path LIKE '${VAULT}%'`);
    expect(copies.filter((id) => withWord.has(id) && fast.others.includes(id)).length).toBeGreaterThan(0);
  });

  it('is not used for a word in few files, nor with dates (their matches are written as before)', () => {
    const source = catalogueSource(catalogue, () => null);
    expect(storeOthersFirst(source, usageScope(source, 'parser -release', undefined, NOW))).toBeNull();
    expect(storeOthersFirst(source, usageScope(source, 'nowhere', undefined, NOW))).toBeNull();
    expect(storeOthersFirst(source, usageScope(source, 'parser after:30d', undefined, NOW))).toBeNull();
    expect(storeOthersFirst(source, usageScope(source, 'parser', undefined, NOW))).not.toBeNull();
  });

  it.each(['model', 'source', 'project'] as const)('leave the dashboard (by %s, with its block and limits) as the hourly rows show it', (breakdown) => {
    const [fast, reference] = dashboardBothWays(catalogue, 'parser', breakdown, HERE, NOW);
    expect(fast).toStrictEqual(reference);
    expect(fast.limits.length).toBeGreaterThan(0);
    expect(fast.block).not.toBeNull();
  });

  it('find the others by id though removed files left holes among the ids', () => {
    const holed = filled(120);
    const [whole] = bothWays(holed, 'parser')!;
    const paths = holed.index.prepared('SELECT id, path FROM files ORDER BY id').all() as Array<{ id: number; path: string }>;
    // An other, a counted file and the file with the last session row removed: their ids left as holes.
    const gone = [whole.others[1], whole.counted[2], whole.counted.at(-1)];
    for (const id of gone) holed.remove(paths.find((p) => p.id === id)!.path);
    holed.index.flush();
    const [fast, slow] = bothWays(holed, 'parser')!;
    expect(fast).toStrictEqual(slow);
    for (const id of gone) expect([...fast.counted, ...fast.others]).not.toContain(id);
    expect(fast.others.length).toBe(whole.others.length - 1);
  });

  it('count a matched file that has no session row (one the writer could not read keeps its rows but has none)', () => {
    const alone = filled(120);
    const [withRow] = bothWays(alone, 'parser')!;
    const victim = withRow.counted.find((id) => !withRow.others.includes(id))!;
    alone.index.prepared('DELETE FROM usage_sessions WHERE file_id = ?').run(victim);
    const [fast, slow] = bothWays(alone, 'parser')!;
    expect(fast).toStrictEqual(slow);
    expect(fast.counted).toContain(victim);
    expect(fast.others).not.toContain(victim);
  });
});
