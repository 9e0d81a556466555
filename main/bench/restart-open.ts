// Benchmark child: a restarted app (a new process on an existing data folder) opening one session; prints its timings and memory as JSON.
// Usage: node main/bench/restart-open.ts <data dir> <root> <session key> [settled]
// `settled`: the session is opened once the start's scan is over (a user who opens it a while after the start),
// otherwise as soon as the services have started (beside the start's scan).
import { benchServices } from './bench-services.ts';

const [dataDir, root, key, when] = process.argv.slice(2);
if (!dataDir || !root || !key) throw new Error('usage: restart-open.ts <data dir> <root> <session key> [settled]');

const services = benchServices({ dataDir, shell: 'web', extraRoots: [root], discoverDefaults: false });
await services.start();
if (when === 'settled') await services.whenScanned();
const t0 = performance.now();
// CPU time of every thread (the session worker's start included): what the open costs on a machine others load too.
const cpu0 = process.cpuUsage();
const opened = await services.client.getSession({ key });
const openMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const openCpuMs = (cpu.user + cpu.system) / 1000;
const sinceSpawnMs = performance.now();
// A later window, the worker already running: what scrolling costs.
const t1 = performance.now();
await services.client.getMessages({ key, offset: Math.floor(opened.messagesTotal / 2), limit: 1000 });
const scrollMs = performance.now() - t1;
// What `serve` holds with the session open: the main thread and the session worker.
const rssMb = process.memoryUsage().rss / 1024 / 1024;
console.log(JSON.stringify({ openMs, openCpuMs, sinceSpawnMs, scrollMs, rssMb, messages: opened.messages.length, messagesTotal: opened.messagesTotal }));
await services.close();
