// Each file's usage pack (usage-file-pack.ts): written, rewritten and removed with its file, and the others of a word in most files added up from their packs as their day and session rows give, a damaged or missing pack read past.
import { describe, expect, it } from 'vitest';
import { Prng } from '../bench/prng.ts';
import { syntheticSession } from '../bench/usage-dashboard.ts';
import { SessionIndex } from './index-store.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { callingModel, dashboardBothWays, fillVaried, packOfRows, packsAndRows, putWithUsage, vaultCatalogue } from './usage-test-catalogue.ts';
import { setHeatmap, setSessions, setUsage } from './usage-file-days.ts';
import { packedOthers } from './usage-packed-set.ts';
import { OTHERS_TABLE } from './usage-scope-table.ts';
import { clockFor } from './usage-timeline.ts';
import { usageDashboard } from './usage-dashboard.ts';

const NOW = Date.UTC(2026, 10, 1);
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const both = (catalogue: IndexedCatalogue, query: string, breakdown: 'model' | 'source' | 'project') =>
  dashboardBothWays(catalogue, query, breakdown, HERE, NOW);
const others = (catalogue: IndexedCatalogue) =>
  (catalogue.index.prepared(`SELECT id FROM ${OTHERS_TABLE} ORDER BY id`).all() as Array<{ id: number }>).map((r) => r.id);

describe('the others of a word in most files, from their packs', () => {
  const catalogue = vaultCatalogue(new SessionIndex(':memory:'));
  fillVaried(catalogue, 200);
  const ask = (breakdown: 'model' | 'source' | 'project') => {
    catalogue.index.flush();
    return usageDashboard(catalogue, { query: 'parser', timezone: HERE, breakdown }, () => null, NOW);
  };

  it.each(['model', 'source', 'project'] as const)('add up (by %s) to what their day rows and session rows give, to the last bit', (breakdown) => {
    ask(breakdown);
    expect(others(catalogue).length).toBeGreaterThan(5);
    const clock = clockFor(catalogue, 0, Number.MAX_SAFE_INTEGER, HERE);
    const packed = packedOthers(catalogue, breakdown);
    const usage = setUsage(catalogue, 'others', clock, breakdown, false);
    expect(packed).not.toBeNull();
    const { hours, hourTriples, ...figures } = packed?.usage ?? usage;
    const { hours: json, hourTriples: none, ...rows } = usage;
    expect(hours.size).toBe(0);
    expect(none).toBeUndefined();
    expect(figures).toStrictEqual(rows);
    expect(rows.rows.length).toBeGreaterThan(10);
    const days = [...json.keys()];
    expect([...(hourTriples?.keys() ?? [])].sort()).toEqual(days.sort());
    expect(setHeatmap(packed?.usage ?? usage, clock, days)).toStrictEqual(setHeatmap(usage, clock, days));
    expect(packed?.sessions).toStrictEqual(setSessions(catalogue, 'others'));
  });

  it('are what the dashboard takes off (a pack changed behind the writer’s back shows), and a damaged pack is read past: its file’s rows are read instead', () => {
    const [before] = both(catalogue, 'parser', 'model');
    const hasDays = (id: number) => catalogue.index.prepared("SELECT 1 FROM usage_file_days WHERE file_id = ? AND day != ''").get(id) !== undefined;
    const file = others(catalogue).find(hasDays) ?? 0;
    const pack = (catalogue.index.prepared('SELECT pack FROM usage_file_packs WHERE file_id = ?').get(file) as { pack: Uint8Array }).pack;
    const setPack = (value: Uint8Array) => catalogue.index.prepared('UPDATE usage_file_packs SET pack = ? WHERE file_id = ?').run(value, file);
    try {
      // A billion input tokens more in the file's pack only: the others take off a billion more.
      setPack(packOfRows(catalogue.index, file, 1e9));
      const [changed] = both(catalogue, 'parser', 'model');
      expect(before.totals.totalTokens - changed.totals.totalTokens).toBeCloseTo(1e9, -2);
      // Cut short: not read; the others' day rows and session rows are read instead, and the answer is the hourly rows'.
      setPack(pack.subarray(0, pack.length - 3));
      const [fast, reference] = both(catalogue, 'parser', 'model');
      expect(fast).toEqual(reference);
      expect(fast).toEqual(before);
    } finally {
      setPack(pack);
    }
  });
});

describe('the others of a word in most files, one with no pack', () => {
  it('are added up from their rows instead, as the hourly rows give them', () => {
    const catalogue = vaultCatalogue(new SessionIndex(':memory:'));
    fillVaried(catalogue, 120);
    const [before] = both(catalogue, 'parser', 'project');
    const file = others(catalogue)[0] ?? 0;
    catalogue.index.prepared('DELETE FROM usage_file_packs WHERE file_id = ?').run(file);
    expect(packedOthers(catalogue, 'project')).toBeNull();
    const [fast, reference] = both(catalogue, 'parser', 'project');
    expect(fast).toEqual(reference);
    expect(fast).toEqual(before);
  });
});

describe('each file’s pack', () => {
  it('is written, rewritten and removed with its file: what its session row and day rows hold', () => {
    const catalogue = vaultCatalogue(new SessionIndex(':memory:'));
    fillVaried(catalogue, 40);
    const rng = new Prng(9);
    for (let n = 0; n < 4; n++) {
      const s = syntheticSession(rng, 30_000 + n);
      putWithUsage(catalogue, `/bench/pack-${n}.jsonl`, s);
      catalogue.index.flush();
      putWithUsage(catalogue, `/bench/pack-${n}.jsonl`, callingModel(s, 'gpt-5-codex'));
      if (n % 2) catalogue.remove(`/bench/pack-${n}.jsonl`);
    }
    const { packs, rows } = packsAndRows(catalogue.index);
    expect(packs.size).toBeGreaterThan(40);
    expect(packs).toEqual(rows);
  });
});
