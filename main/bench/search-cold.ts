// Child process for the search benchmark: a cold index of a corpus in a fresh process, so its RSS is the app's alone.
import { readFileSync } from 'node:fs';
import { benchServices } from './bench-services.ts';

const [dataDir, root, queryFile] = process.argv.slice(2);
if (!dataDir || !root) throw new Error('usage: search-cold.ts <dataDir> <root> [queries.json]');
const queries = queryFile ? (JSON.parse(readFileSync(queryFile, 'utf8')) as string[]) : [];
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const services = benchServices({ dataDir, shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false });
await services.start();
await services.whenScanned();
await services.client.searchSessions({ query: 'sort:date', limit: 1, offset: 0 }); // the last writes are in
const coldIndexMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
// Then the writer thread merges the full-text tables (index-tidy.ts), searches served meanwhile; the peak RSS covers it.
// (Its CPU time includes the queries run meanwhile.)
const tidy0 = performance.now();
const tidyCpu0 = process.cpuUsage();
// What a user searching right away sees: every file is found, over tables not merged yet.
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
process.stdout.write(
  `${JSON.stringify({ coldIndexMs, cpuMs: (cpu.user + cpu.system) / 1000, tidyMs, tidyCpuMs: (tidyCpu.user + tidyCpu.system) / 1000, mergingQueryMs, peakRssMb: peakRss / 1024 / 1024 })}\n`,
);
