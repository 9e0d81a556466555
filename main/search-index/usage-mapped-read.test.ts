// The dashboard reads an index file through a memory map while it adds up: the same answers, and the map gone a few seconds after the last call (so the pages it read stay out of the app's resident memory), even when a read fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { syntheticSession } from '../bench/usage-dashboard.ts';
import { Prng } from '../bench/prng.ts';
import { SessionIndex } from './index-store.ts';
import type { IndexedCatalogue } from './indexed-catalogue.ts';
import { usageDashboard } from './usage-dashboard.ts';
import { UNMAP_AFTER_MS, unmapNow, whileMapped } from './usage-mapped-read.ts';
import { dashboardBothWays, putWithUsage, vaultCatalogue } from './usage-test-catalogue.ts';

const NOW = Date.UTC(2026, 10, 1);
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;

describe('the dashboard over an index file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sv-dashboard-mapped-'));
  let index: SessionIndex;
  let catalogue: IndexedCatalogue;
  const mapped = () => (index.prepared('PRAGMA mmap_size').get() as { mmap_size: number }).mmap_size;

  beforeAll(async () => {
    index = new SessionIndex(join(dir, 'index.sqlite'));
    catalogue = vaultCatalogue(index);
    const rng = new Prng(5);
    for (let n = 0; n < 80; n++) {
      const s = syntheticSession(rng, n);
      putWithUsage(catalogue, s.sourceFiles[0]?.path as string, s);
    }
    await index.settled();
  });
  afterEach(() => {
    unmapNow(index);
    vi.useRealTimers();
  });
  afterAll(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('maps the file while it adds up, and answers as every matched file’s hourly rows do', () => {
    expect(mapped()).toBe(0);
    let during = 0;
    whileMapped(index, () => (during = mapped()));
    // SQLite maps up to its own limit (2 GB less 64 KB).
    expect(during).toBeGreaterThan(1024 ** 3);
    for (const [query, breakdown] of [
      ['', 'project'],
      ['parser', 'project'],
      ['parser', 'model'],
      ['source:codex', 'source'],
      ['after:30d', 'model'],
    ] as const) {
      const [fast, reference] = dashboardBothWays(catalogue, query, breakdown, HERE, NOW);
      expect(fast.totals.sessions, query).toBeGreaterThan(0);
      expect(fast, query).toEqual(reference);
    }
  });

  it('unmaps the file once no dashboard call came for a while, and keeps it mapped between calls that follow closely', () => {
    vi.useFakeTimers();
    usageDashboard(catalogue, { query: 'parser', breakdown: 'project', timezone: HERE }, () => null, NOW);
    expect(mapped()).toBeGreaterThan(0);
    vi.advanceTimersByTime(UNMAP_AFTER_MS - 1000);
    usageDashboard(catalogue, { query: 'after:30d', breakdown: 'model', timezone: HERE }, () => null, NOW);
    vi.advanceTimersByTime(UNMAP_AFTER_MS - 1000);
    expect(mapped()).toBeGreaterThan(0);
    vi.advanceTimersByTime(1000);
    expect(mapped()).toBe(0);
  });

  it('unmaps the file after a read that fails too (its error passed on)', () => {
    vi.useFakeTimers();
    expect(() =>
      whileMapped(index, () => {
        throw new Error('a read failed');
      }),
    ).toThrow('a read failed');
    expect(mapped()).toBeGreaterThan(0);
    vi.advanceTimersByTime(UNMAP_AFTER_MS);
    expect(mapped()).toBe(0);
  });

  it('drops a pending unmap quietly when the index was closed first', () => {
    vi.useFakeTimers();
    const other = new SessionIndex(join(dir, 'other.sqlite'));
    whileMapped(other, () => null);
    other.close();
    expect(() => vi.advanceTimersByTime(UNMAP_AFTER_MS)).not.toThrow();
  });
});
