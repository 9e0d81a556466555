// Child process for the search benchmark: the app's first scan of a corpus in a fresh process (its RSS is the app's alone), timed until listed, searchable and merged.
import { readFileSync } from 'node:fs';
import { benchServices } from './bench-services.ts';

export interface ColdFigures {
  /** Every session listed (the scan over, the index's rows written). */
  listedMs: number;
  /** Every session searchable by its words. */
  searchableMs: number;
  /** Every session's identifiers in too (substring search complete). */
  caughtUpMs: number;
  /** CPU time of every thread until caught up. */
  cpuMs: number;
  /** Then the full-text tables merged (index-tidy.ts), searches served meanwhile. */
  tidyMs: number;
  tidyCpuMs: number;
  /** Each query once, right after everything is searchable (the tables being merged). */
  mergingQueryMs: number[];
  peakRssMb: number;
}

const [dataDir, root, queryFile] = process.argv.slice(2);
if (!dataDir || !root) throw new Error('usage: search-cold.ts <dataDir> <root> [queries.json]');
const queries = queryFile ? (JSON.parse(readFileSync(queryFile, 'utf8')) as string[]) : [];
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
// As the app runs (watching): its writer thread takes the text as soon as the list no longer needs the cores.
const services = benchServices({ dataDir, shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: true });
await services.start();
await services.whenListed();
const listedMs = performance.now() - t0;
await services.whenSearchable();
const searchableMs = performance.now() - t0;
await services.whenScanned();
await services.client.searchSessions({ query: 'sort:date', limit: 1, offset: 0 }); // the last writes are in
const caughtUpMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const tidy0 = performance.now();
const tidyCpu0 = process.cpuUsage();
const mergingQueryMs: number[] = [];
for (const query of queries) {
  const q0 = performance.now();
  await services.client.searchSessions({ query, limit: 20, offset: 0 });
  mergingQueryMs.push(performance.now() - q0);
}
await services.whenIndexTidied();
const tidyMs = performance.now() - tidy0;
const tidyCpu = process.cpuUsage(tidyCpu0);
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
await services.close();
const figures: ColdFigures = {
  listedMs,
  searchableMs,
  caughtUpMs,
  cpuMs: (cpu.user + cpu.system) / 1000,
  tidyMs,
  tidyCpuMs: (tidyCpu.user + tidyCpu.system) / 1000,
  mergingQueryMs,
  peakRssMb: peakRss / 1024 / 1024,
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
