// Runs a command as a user does (spawn to exit) and measures its wall time and peak resident memory (Linux: /proc VmHWM, sampled).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ProcessRun {
  ms: number;
  /** Peak resident memory seen (VmHWM, sampled every 20 ms; 0 where /proc is missing). */
  peakRssMb: number;
  stdout: string;
}

function highWater(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Fails with the command's stderr when it exits non-zero. */
export function timedProcess(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let peak = 0;
    const sampler = setInterval(() => {
      if (child.pid) peak = Math.max(peak, highWater(child.pid));
    }, 20);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    child.on('error', (e) => {
      clearInterval(sampler);
      reject(e);
    });
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      clearInterval(sampler);
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${err.slice(0, 2000)}`));
      else resolve({ ms, peakRssMb: peak, stdout: Buffer.concat(out).toString('utf8') });
    });
  });
}
