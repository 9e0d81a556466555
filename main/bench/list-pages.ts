// Benchmark: the list at 100,000 sessions as a window loads it (its first page, then pages) against the whole list in one answer, on the dashboard bench's synthetic index.
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIST_FIRST_PAGE, LIST_PAGE } from '../../shared/list-pages.ts';
import type { SessionSummary } from '../../shared/session.ts';
import { SessionIndex } from '../search-index/index-store.ts';
import { IndexedCatalogue } from '../search-index/indexed-catalogue.ts';
import { listWithIndex } from '../search-index/search-service.ts';
import { buildDashboardIndex } from './usage-dashboard.ts';

export interface ListPagesFigures {
  sessions: number;
  /** Per run: the first page, the slowest later page, every page together, the whole list in one answer (ms, answer serialised as the server sends it). */
  runs: Array<{ firstMs: number; slowestPageMs: number; pagesMs: number; wholeMs: number; pages: number }>;
  bytesWhole: number;
  load: [number, number];
}

const annotated = Object.assign(() => null, {});
const asIs = (s: SessionSummary) => s;

/** One answer as the server gives it: the rows read, then serialised (what a transport sends). */
function answer(catalogue: IndexedCatalogue, query: { limit?: number; offset?: number }): { rows: number; bytes: number; ms: number } {
  const t0 = performance.now();
  const listed = listWithIndex(catalogue, query, asIs, annotated);
  const bytes = JSON.stringify(listed).length;
  return { rows: listed.sessions.length, bytes, ms: performance.now() - t0 };
}

export async function benchListPages(sessions: number, runs: number, keptIndex?: string): Promise<ListPagesFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'sv-bench-list-pages-'));
  try {
    const file = join(dir, 'index.sqlite');
    if (keptIndex && existsSync(keptIndex)) await copyFile(keptIndex, file);
    else (await buildDashboardIndex(file, sessions)).index.close();
    const index = new SessionIndex(file);
    const catalogue = new IndexedCatalogue(index);
    await catalogue.restore(() => true);
    const load0 = loadavg()[0] ?? 0;
    const out: ListPagesFigures['runs'] = [];
    let bytesWhole = 0;
    let listed = 0;
    try {
      for (let run = 0; run < runs; run++) {
        const first = answer(catalogue, { limit: LIST_FIRST_PAGE });
        const pages: number[] = [];
        let rows = first.rows;
        for (let offset = first.rows; ; offset += LIST_PAGE) {
          const page = answer(catalogue, { limit: LIST_PAGE, offset });
          if (page.rows === 0) break;
          pages.push(page.ms);
          rows += page.rows;
        }
        const whole = answer(catalogue, {});
        if (rows !== whole.rows) throw new Error(`the pages gave ${rows} rows, the whole list ${whole.rows}`);
        bytesWhole = whole.bytes;
        listed = whole.rows;
        out.push({
          firstMs: first.ms,
          slowestPageMs: Math.max(...pages),
          pagesMs: first.ms + pages.reduce((a, b) => a + b, 0),
          wholeMs: whole.ms,
          pages: pages.length,
        });
      }
    } finally {
      index.close();
    }
    return { sessions: listed, runs: out, bytesWhole, load: [load0, loadavg()[0] ?? 0] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
const span = (xs: number[]) => `${med(xs).toFixed(0)} ms [${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}]`;

export function printListPages(f: ListPagesFigures): void {
  const first = f.runs.map((r) => r.firstMs);
  const whole = f.runs.map((r) => r.wholeMs);
  console.log(
    `\nThe list at ${f.sessions.toLocaleString('en-US')} sessions as a window loads it — ${f.runs.length} runs, median [min–max], load ${f.load.map((l) => l.toFixed(1)).join('→')}`,
  );
  console.log(`  first page (${LIST_FIRST_PAGE.toLocaleString('en-US')} rows):   ${span(first)}`);
  console.log(
    `  then ${f.runs[0]?.pages ?? 0} pages of ${LIST_PAGE.toLocaleString('en-US')}: slowest ${span(f.runs.map((r) => r.slowestPageMs))}; all pages together ${span(f.runs.map((r) => r.pagesMs))}`,
  );
  console.log(`  the whole list in one answer (as before): ${span(whole)}, ${(f.bytesWhole / 1e6).toFixed(1)} MB`);
  console.log(
    `  first rows shown after ${(med(first) / med(whole)).toFixed(3)}× the whole answer's time; longest the server is held by one list call: ${(med(f.runs.map((r) => r.slowestPageMs)) / med(whole)).toFixed(2)}×`,
  );
}
