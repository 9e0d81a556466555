// Folders that are never a root: the file system's root, pseudo file systems (/proc, /sys, /dev) and folders as broad as every home.
import { dirname, parse, sep } from 'node:path';
import { homedir } from 'node:os';
import { isWithin } from './paths.ts';

/** Kernel and device file systems: endless or unreadable trees, never sessions. */
const PSEUDO = ['/proc', '/sys', '/dev'];

/**
 * Why `path` (absolute, canonical) cannot be a root, in a sentence, or null when it can. Walking and watching
 * any of these would read the whole disk or a pseudo file system, and fail or never end.
 */
export function whyRefusedRoot(path: string, home: string = homedir()): string | null {
  if (parse(path).root === path) return `${path} is the root of the file system; add the folder that holds the sessions instead.`;
  if (sep === '/') {
    const pseudo = PSEUDO.find((p) => isWithin(p, path));
    if (pseudo) return `${path} is inside ${pseudo}, a system file system that holds no sessions.`;
  }
  if (path === home) return `${path} is your whole home folder, too broad to read and watch; add the folder that holds the sessions (e.g. ~/projects).`;
  if (path === dirname(home)) return `${path} holds every user's home folder, too broad to read and watch; add the folder that holds the sessions.`;
  return null;
}
