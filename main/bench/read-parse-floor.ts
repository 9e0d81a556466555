// The floor every scan is measured against: read each file and JSON.parse it (each line of a JSONL file), one thread, nothing else.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface FloorFigures {
  ms: number;
  cpuMs: number;
}

/**
 * The file's bytes in `into` (grown when the file is larger), as a view of the bytes read. One buffer for every file,
 * as a reader keeps its buffers: a fresh one per file, and a string of each whole file, cost more here than the
 * parse (each fresh page of memory is a fault of 20-35 µs on these VMs; reading 400 files of 523 MB whole as
 * strings took 8.8-9.7 s, line by line from one buffer 4.3-5.7 s).
 */
function readInto(path: string, into: { buffer: Buffer }): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > into.buffer.length) into.buffer = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, into.buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return into.buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads and parses `paths` in this thread, in order; what no reader can do faster on one core. A JSONL file is parsed
 * a line at a time, each line decoded on its own (as the app's reader does), never the whole file as one string.
 */
export function readParseFloor(paths: readonly string[]): FloorFigures {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const into = { buffer: Buffer.allocUnsafe(1 << 20) };
  for (const path of paths) {
    let bytes = readInto(path, into);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
    if (path.endsWith('.jsonl') || path.endsWith('.jsonl.gz')) {
      let start = 0;
      while (start < bytes.length) {
        let end = bytes.indexOf(0x0a, start);
        if (end === -1) end = bytes.length;
        if (end > start) JSON.parse(bytes.toString('utf8', start, end));
        start = end + 1;
      }
    } else JSON.parse(bytes.toString('utf8'));
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}
