// Path checks that keep every read inside the folders the user (or discovery) made known.
import { realpath } from 'node:fs';
import { resolve, sep } from 'node:path';
import { homedir } from 'node:os';

const SEP_CODE = sep.charCodeAt(0);

/** True when `child` is `parent` or lies below it (both already absolute and normalised). */
export function isWithin(parent: string, child: string): boolean {
  // A prefix test, not path.relative: a start checks 100,000 restored paths against every root.
  if (process.platform === 'win32') {
    parent = parent.toLowerCase();
    child = child.toLowerCase();
  }
  if (child === parent) return true;
  // No string is built: a start makes hundreds of thousands of these checks.
  if (child.length <= parent.length || !child.startsWith(parent)) return false;
  return parent.endsWith(sep) || child.charCodeAt(parent.length) === SEP_CODE;
}

/**
 * Resolves symlinks where the path exists, so a link cannot smuggle a file in from outside. The system's realpath
 * (as fs/promises' is) through a callback: node:fs/promises loads 15 more of Node's modules, and the CLI's quick
 * list and search import this file for isWithin alone.
 */
export function canonical(path: string): Promise<string> {
  return new Promise((done) => realpath.native(path, (err, real) => done(err ? resolve(path) : real)));
}

/** Expands a leading `~` the way a shell would; the UI sends what the user typed. */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/') || path.startsWith('~\\')) return resolve(home, path.slice(2));
  return path;
}
