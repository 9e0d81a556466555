// The dashboard's fast ways (the writer's totals, the files' day rows, the totals less the other files, read from their packed day rows, over all time or a query's dates, model: by its indexed names and the totals per set of names) show what every matched file's hourly rows show, for each query shape the bench times, on a varied generated index with and without kept copies; and indexes of schema 10, 11 and 13 upgrade to the same answers.
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/session.ts';
import { DASHBOARD_QUERIES, syntheticSession } from '../bench/usage-dashboard.ts';
import { Prng } from '../bench/prng.ts';
import { SessionIndex } from './index-store.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { parseQuery } from './query-parser.ts';
import { buildMatch } from './search.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { modelCondition } from './usage-file-models.ts';
import { namesAnswer } from './usage-name-rollup.ts';
import { DROP_NAME_TOTALS } from './usage-name-totals.ts';
import { callingModel, dashboardBothWays, fillVaried, packsAndRows, putWithUsage, VAULT, vaultCatalogue } from './usage-test-catalogue.ts';

const NOW = Date.UTC(2026, 10, 1);
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;

const both = (catalogue: IndexedCatalogue, query: string, breakdown: 'model' | 'source' | 'project') =>
  dashboardBothWays(catalogue, query, breakdown, HERE, NOW);

/** Shapes the totals per set of model names answer: a part of a name, an exact name, a wildcard, with a source, no match. */
const NAME_SHAPES = [
  ['model:"claude-haiku-4-5"', 'model'],
  ['source:claude-code model:sonnet', 'source'],
  ['model:codex', 'model'],
  ['model:nothing', 'model'],
] as const;

/** The bench's shapes, and more: an exact model, a wildcard, a model and a word, a word most files lack. */
const SHAPES = [
  ...DASHBOARD_QUERIES.map((q) => [q.query, q.breakdown] as const),
  ['model:"claude-sonnet-4-5"', 'project'],
  ['model:gpt-5*codex', 'source'],
  ['model:haiku parser', 'model'],
  ['model:opus after:90d', 'project'],
  ['-parser', 'model'],
  // Words: most files (the totals less the others), by every breakdown; a prefix, an excluded word, two words, a part of an identifier.
  ['parser', 'source'],
  ['pars*', 'project'],
  ['parser -release', 'model'],
  ['parser cache', 'project'],
  ['laude-opu', 'model'],
  // Dates: the totals per day less the other files with usage on those days (usage-dated-totals.ts), the first and last
  // day held whole or cut at an hour, stacked each way; and dates with a narrowing filter (the counted files' own rows).
  ['after:30d', 'project'],
  ['after:30d', 'source'],
  ['after:36h', 'model'],
  ['before:2026-01-15', 'project'],
  ['after:2026-06-01T06:00:00Z before:2026-06-03T18:00:00Z', 'source'],
  ['after:2026-06-10 before:2026-06-10', 'model'],
  ['project:proj-7 after:30d', 'project'],
  // From the totals per set of model names (usage-name-rollup.ts).
  ...NAME_SHAPES,
] as const;

/** The files search's model: filter matches (a test of each file's own model and day rows) and the indexed names' files. */
function modelMatches(index: SessionIndex, query: string): { search: number[]; names: number[] } {
  const parsed = parseQuery(query, NOW);
  const m = buildMatch({ ...parsed, terms: [] });
  const ids = (where: string, params: Array<string | number | null>) =>
    (index.prepared(`SELECT f.id AS id FROM files f WHERE ${where} ORDER BY f.id`).all(...params) as Array<{ id: number }>).map((r) => r.id);
  const names = modelCondition(parsed.filters);
  return {
    search: ids(m?.fileConds.join(' AND ') ?? '0', (m?.fileParams ?? []) as Array<string | number | null>),
    names: names ? ids(names.clause, names.params as Array<string | number | null>) : [],
  };
}
const MODEL_QUERIES = [
  'model:opus',
  'model:OPUS',
  'model:"claude-opus-4-7"',
  'model:"CLAUDE-HAIKU-4-5"',
  'model:gpt-5*',
  'model:5.1',
  'model:"gpt-5"',
  'model:nothing',
];

/** On an upgraded index, restored as a start does: every query shape answers as the hourly-rows reference. */
async function expectShapesAsReference(index: SessionIndex): Promise<void> {
  const catalogue = vaultCatalogue(index);
  await catalogue.restore(() => true);
  for (const [query, breakdown] of SHAPES) {
    const [fast, reference] = both(catalogue, query, breakdown);
    expect(fast, query).toEqual(reference);
  }
}
/** An index file holding 120 sessions as this schema's writer leaves it, closed: an older schema is made from it. */
async function writeFilledIndex(file: string): Promise<void> {
  const first = new SessionIndex(file);
  fillVaried(vaultCatalogue(first), 120);
  await first.settled();
  first.close();
}

describe('the dashboard on a varied index of 400 sessions', () => {
  const catalogue = vaultCatalogue(new SessionIndex(':memory:'));
  fillVaried(catalogue, 400);

  it.each(SHAPES)('shows for %s (by %s) what the hourly rows show', (query, breakdown) => {
    const [fast, reference] = both(catalogue, query, breakdown);
    expect(fast).toEqual(reference);
  });

  it('answers model: (with or without a source) from the totals per set of names, and other shapes not', () => {
    for (const [query, breakdown] of [...NAME_SHAPES, ['model:opus', 'model'], ['model:gpt-5*codex', 'source']] as const)
      expect(namesAnswer(parseQuery(query, NOW), breakdown), query).toBe(true);
    for (const [query, breakdown] of [
      ['model:opus', 'project'],
      ['model:opus after:90d', 'model'],
      ['model:haiku parser', 'model'],
      ['', 'model'],
    ] as const)
      expect(namesAnswer(parseQuery(query, NOW), breakdown), query).toBe(false);
    // The current block is compared too: it is not empty.
    expect(both(catalogue, 'model:opus', 'model')[0].block).not.toBeNull();
  });

  it('counts sessions for the broad and narrow shapes alike (the comparison is not of empty dashboards)', () => {
    for (const query of [
      '',
      'parser',
      'pars*',
      'parser -release',
      'parser cache',
      'laude-opu',
      'model:opus',
      'after:30d',
      'project:proj-7',
      'parser project:proj-7 after:90d',
    ])
      expect(both(catalogue, query, 'model')[0].totals.sessions, query).toBeGreaterThan(0);
  });

  it('finds for model: the files search finds, by the names each file is of or called', () => {
    catalogue.index.flush();
    for (const query of MODEL_QUERIES) {
      const { search, names } = modelMatches(catalogue.index, query);
      expect(names, query).toEqual(search);
    }
    expect(modelMatches(catalogue.index, 'model:"claude-sonnet-4-5"').names.length).toBeGreaterThan(0);
  });

  it('forgets a removed file’s names, and a rewritten file’s old ones', () => {
    catalogue.index.flush();
    const rng = new Prng(5);
    const s = syntheticSession(rng, 9_999);
    putWithUsage(catalogue, '/bench/extra.jsonl', s);
    putWithUsage(catalogue, '/bench/extra.jsonl', { ...s, model: { provider: null, name: 'some-other-model', parameters: {} } });
    catalogue.index.flush();
    expect(modelMatches(catalogue.index, 'model:some-other').names).toHaveLength(1);
    catalogue.remove('/bench/extra.jsonl');
    catalogue.index.flush();
    for (const query of [...MODEL_QUERIES, 'model:some-other']) {
      const { search, names } = modelMatches(catalogue.index, query);
      expect(names, query).toEqual(search);
    }
  });

  it('keeps the totals per set of names in step as files are rewritten with other models and removed', () => {
    const rng = new Prng(8);
    for (let n = 0; n < 6; n++) {
      const s = syntheticSession(rng, 20_000 + n);
      putWithUsage(catalogue, `/bench/changing-${n}.jsonl`, s);
      catalogue.index.flush();
      putWithUsage(catalogue, `/bench/changing-${n}.jsonl`, callingModel(s, n % 2 ? 'claude-haiku-4-5' : 'gpt-5-codex'));
      if (n % 3 === 0) catalogue.remove(`/bench/changing-${n}.jsonl`);
    }
    for (const [query, breakdown] of [...NAME_SHAPES, ['model:opus', 'model'], ['model:gpt-5*codex', 'source']] as const) {
      const [fast, reference] = both(catalogue, query, breakdown);
      expect(fast, query).toEqual(reference);
    }
  });
});

/** The session recording a rate limit at its last activity (as Codex's do), `used` percent of it used. */
function limited(s: Session, used: number): Session {
  return {
    ...s,
    extra: { ...s.extra, rateLimits: { at: s.updatedAt, windows: [{ name: 'primary', usedPercent: used, windowMinutes: 300, resetsAt: null }] } },
  };
}

describe('model: over sub-agents whose parent decides whether they count', () => {
  /**
   * Parents calling `parents[i]`, each with a sub-agent calling only haiku: a haiku sub-agent of an opus parent counts
   * in model:opus with its parent. A kept copy of the first parent and of its sub-agent, shadowed by their live files.
   */
  function families(parents: string[]): IndexedCatalogue {
    const catalogue = vaultCatalogue(new SessionIndex(':memory:'));
    const rng = new Prng(3);
    parents.forEach((model, n) => {
      const parent = limited(callingModel(syntheticSession(rng, n), model), 10 + n);
      const sub = limited(callingModel(syntheticSession(rng, 100 + n, parent.key), 'claude-haiku-4-5'), 50 + n);
      for (const s of [parent, sub]) {
        const path = s.sourceFiles[0]?.path as string;
        putWithUsage(catalogue, path, s);
        if (n === 0) putWithUsage(catalogue, `${VAULT}${s.key}/source${path}`, s);
      }
    });
    return catalogue;
  }

  // Most of the haiku sub-agents count (their totals less the others'), or few do (their own rows added).
  it.each([
    ['most count', ['claude-opus-4-7', 'claude-opus-4-7', 'claude-opus-4-7', 'claude-sonnet-4-5']],
    ['few count', ['claude-opus-4-7', 'claude-sonnet-4-5', 'claude-sonnet-4-5', 'claude-sonnet-4-5']],
  ])('counts a matched parent’s sub-agents once, as the hourly rows do (%s)', (_, parents) => {
    const catalogue = families(parents);
    const opus = parents.filter((m) => m === 'claude-opus-4-7').length;
    for (const breakdown of ['model', 'source'] as const) {
      const [fast, reference] = both(catalogue, 'model:opus', breakdown);
      expect(fast).toEqual(reference);
      expect(fast.totals.sessions).toBe(2 * opus);
      expect(fast.models.map((m) => m.name).sort()).toEqual(['claude-haiku-4-5', 'claude-opus-4-7']);
      expect(fast.limits.length).toBeGreaterThan(0);
    }
    // Every sub-agent calls haiku, no parent does: they count alone.
    const [fast, reference] = both(catalogue, 'model:"claude-haiku-4-5"', 'model');
    expect(fast).toEqual(reference);
    expect(fast.totals.sessions).toBe(parents.length);
  });
});

describe('an index of schema 11', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sv-dashboard-names-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const TABLES = ['usage_name_days', 'usage_name_hours', 'usage_name_projects', 'usage_name_tools', 'usage_name_sessions'];
  const rows = (read: (sql: string) => unknown[]) =>
    TABLES.map((t) =>
      JSON.parse(JSON.stringify(read(`SELECT * FROM ${t} ORDER BY 1, 2, 3, 4, 5, 6`)), (_, v: unknown) =>
        typeof v === 'number' ? Number(v.toPrecision(12)) : v,
      ),
    );

  it('gains the totals per set of names from the rows it has: the writer’s, and the same answers', async () => {
    const file = join(dir, 'index.sqlite');
    await writeFilledIndex(file);
    // Schema 11 is schema 12 without the totals per set of names, at version 11.
    const db = new DatabaseSync(file);
    const written = rows((sql) => db.prepare(sql).all());
    expect(written[0]?.length).toBeGreaterThan(100);
    db.exec(`${DROP_NAME_TOTALS} PRAGMA user_version = 11`);
    db.close();
    const index = new SessionIndex(file);
    try {
      expect(index.note).toBe(`The search index was upgraded from version 11 to ${SCHEMA_VERSION}.`);
      expect(rows((sql) => index.prepared(sql).all())).toEqual(written);
      const catalogue = vaultCatalogue(index);
      await catalogue.restore(() => true);
      for (const [query, breakdown] of [...NAME_SHAPES, ['model:opus', 'model']] as const) {
        const [fast, reference] = both(catalogue, query, breakdown);
        expect(fast, query).toEqual(reference);
      }
    } finally {
      index.close();
    }
  });
});

describe('the dashboard on an index with no kept copies (no shadowed copy to take off the totals)', () => {
  const catalogue = vaultCatalogue(new SessionIndex(':memory:'));
  fillVaried(catalogue, 300, false);

  it.each([
    ['', 'model'],
    ['', 'project'],
    ['', 'source'],
    ['source:gemini', 'project'],
    ['parser', 'model'],
    ['parser', 'project'],
    ['parser', 'source'],
    ['after:30d', 'project'],
  ] as const)('shows for %s (by %s) what the hourly rows show', (query, breakdown) => {
    const [fast, reference] = both(catalogue, query, breakdown);
    expect(fast.totals.sessions).toBeGreaterThan(0);
    expect(fast).toEqual(reference);
  });
});

describe('an index of schema 10', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sv-dashboard-paths-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gains the model names and the narrow session rows from the rows it has, and answers as before', async () => {
    const file = join(dir, 'index.sqlite');
    await writeFilledIndex(file);
    // Schema 10 is schema 11 without these (what the writer of schema 10 left), at version 10.
    const db = new DatabaseSync(file);
    const written = db.prepare('SELECT model, file_id FROM usage_file_models ORDER BY 1, 2').all();
    expect(written.length).toBeGreaterThan(120);
    db.exec('DROP TABLE usage_file_models; DROP INDEX usage_sessions_narrow; PRAGMA user_version = 10');
    db.close();
    const index = new SessionIndex(file);
    try {
      expect(index.note).toBe(`The search index was upgraded from version 10 to ${SCHEMA_VERSION}.`);
      expect(index.prepared('SELECT model, file_id FROM usage_file_models ORDER BY 1, 2').all()).toEqual(written);
      await expectShapesAsReference(index);
    } finally {
      index.close();
    }
  });
});

/** The files the last dashboard call counted as the others (the totals less them: a word in most files). */
describe('an index of schema 13', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sv-dashboard-packs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const packs = (read: (sql: string) => unknown[]) => read('SELECT file_id, pack FROM usage_file_packs ORDER BY file_id');

  it('gains each file’s pack from the session and day rows it has: the writer’s, and the same answers', async () => {
    const file = join(dir, 'index.sqlite');
    await writeFilledIndex(file);
    // Schema 13 is schema 14 without the packs, at version 13.
    const db = new DatabaseSync(file);
    const written = packs((sql) => db.prepare(sql).all());
    expect(written.length).toBe((db.prepare('SELECT count(*) AS n FROM usage_sessions').get() as { n: number }).n);
    expect(written.length).toBeGreaterThan(100);
    db.exec('DROP TABLE usage_file_packs; PRAGMA user_version = 13');
    db.close();
    const index = new SessionIndex(file);
    try {
      expect(index.note).toBe(`The search index was upgraded from version 13 to ${SCHEMA_VERSION}.`);
      expect(packs((sql) => index.prepared(sql).all())).toEqual(written);
      const stored = packsAndRows(index);
      expect(stored.packs).toEqual(stored.rows);
      await expectShapesAsReference(index);
    } finally {
      index.close();
    }
  });
});
