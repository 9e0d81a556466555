// The floor every scan is measured against: read each file and JSON.parse it (each line of a JSONL file), one thread, nothing else.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface FloorFigures {
  ms: number;
  cpuMs: number;
}

/** Reads and parses `paths` in this thread, in order; what no reader can do faster on one core. */
export function readParseFloor(paths: readonly string[]): FloorFigures {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const path of paths) {
    let buf = readFileSync(path);
    if (buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
    const text = buf.toString('utf8');
    if (path.endsWith('.jsonl')) {
      let start = 0;
      while (start < text.length) {
        let end = text.indexOf('\n', start);
        if (end === -1) end = text.length;
        if (end > start) JSON.parse(text.slice(start, end));
        start = end + 1;
      }
    } else JSON.parse(text);
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}
