// CPU time a local PostgreSQL server has used (the postmaster, its live processes and those that ended), read from Linux's /proc: the team bench's steadier figure on a busy machine.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Linux's USER_HZ: /proc counts CPU time in these ticks (100 a second on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/** utime, stime, cutime, cstime and the parent pid of a process, from /proc/<pid>/stat; null when it is gone. */
async function statOf(pid: number): Promise<{ ppid: number; own: number; children: number } | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!text) return null;
  // The command name is in parentheses and may hold spaces: fields are counted after the last ")".
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(fields[i - 3] ?? 0);
  return { ppid: n(4), own: n(14) + n(15), children: n(16) + n(17) };
}

/**
 * Milliseconds of CPU the server whose data folder is `dataDir` has used so far: the postmaster's own, what its
 * ended children used (the kernel adds it to the postmaster when it reaps them) and what its live ones use. Null
 * where there is no /proc (not Linux) or no postmaster.pid.
 */
export async function serverCpuMs(dataDir: string): Promise<number | null> {
  const pidText = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => null);
  const postmaster = Number(pidText?.split('\n')[0]);
  if (!Number.isInteger(postmaster) || postmaster <= 0) return null;
  const main = await statOf(postmaster);
  if (!main) return null;
  let ticks = main.own + main.children;
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const child = await statOf(Number(name));
    if (child?.ppid === postmaster) ticks += child.own;
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Milliseconds of CPU this process's ended child processes used (psql, in the bench's baseline); null without /proc. */
export async function childrenCpuMs(): Promise<number | null> {
  const self = await statOf(process.pid);
  return self ? (self.children * 1000) / TICKS_PER_SECOND : null;
}
