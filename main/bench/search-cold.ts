// Child process for the search benchmark: a cold index of a corpus in a fresh process, so its RSS is the app's alone.
import { createServices } from '../services.ts';

const [dataDir, root] = process.argv.slice(2);
if (!dataDir || !root) throw new Error('usage: search-cold.ts <dataDir> <root>');
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const services = createServices({ dataDir, shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false });
await services.start();
await services.whenScanned();
await services.methods.searchSessions({ query: 'sort:date', limit: 1, offset: 0 }); // the last writes are in
const coldIndexMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
// Then the writer thread merges the full-text tables (index-tidy.ts), searches served meanwhile; the peak RSS covers it.
const tidy0 = performance.now();
const tidyCpu0 = process.cpuUsage();
await services.whenIndexTidied();
const tidyMs = performance.now() - tidy0;
const tidyCpu = process.cpuUsage(tidyCpu0);
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
await services.close();
process.stdout.write(`${JSON.stringify({ coldIndexMs, cpuMs: (cpu.user + cpu.system) / 1000, tidyMs, tidyCpuMs: (tidyCpu.user + tidyCpu.system) / 1000, peakRssMb: peakRss / 1024 / 1024 })}\n`);
