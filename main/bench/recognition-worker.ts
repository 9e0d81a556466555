// Worker for the recognition benchmark: chooses each file's reader on a worker thread, as the scan's read workers do (blocking head reads into one buffer).
import { parentPort, workerData } from 'node:worker_threads';
import { resolveReader } from '../sources/recognize.ts';

const files = workerData as string[];
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const formats: Array<string | null> = [];
for (const file of files) formats.push((await resolveReader(file))?.format ?? null);
const cpu = process.cpuUsage(cpu0);
// process.cpuUsage() in a worker counts the whole process; the main thread waits meanwhile, so it is this thread's.
parentPort?.postMessage({ ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, formats });
