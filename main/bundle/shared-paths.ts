// How a shared session names its files: a kept or imported copy's by their original paths, never by the exporter's vault (data folder).
import { sep as platformSep } from 'node:path';

/** Where a vault-only session (a fork, a recording) says it lives once shared: it has no original path. */
export const VAULT_PLACEHOLDER = 'session-vault';

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Rewrites every path below `vault` (the vault's folder, `<data dir>/vault`) inside `text`: a kept copy's
 * `<vault>/sessions/<folder>/source/<original path>` becomes the original path (a Windows drive letter gets its
 * colon back), any other vault path `/session-vault/<path below the vault>`. Text without the vault is returned as is.
 */
export function sharedText(text: string, vault: string, sep: string = platformSep): string {
  if (!text.includes(vault)) return text;
  const s = escaped(sep);
  // A Windows copy keeps the drive as a folder (`source\C\Users\…`, see copyPathFor): it becomes `C:` again.
  const drive = sep === '\\' ? `(?:${s}([A-Za-z])(?=${s}|$))?` : '';
  const copy = new RegExp(`${escaped(vault + sep)}sessions${s}[A-Za-z0-9._-]+${s}source(?=${s})${drive}`, 'g');
  const other = new RegExp(`${escaped(vault)}(?=${s}|$|[^A-Za-z0-9._-])`, 'g');
  return text.replace(copy, (_m, letter: unknown) => (typeof letter === 'string' ? `${letter}:` : '')).replace(other, `${sep}${VAULT_PLACEHOLDER}`);
}

/** A file's path as a bundle names it (see sharedText); `vault` null leaves it as it is. */
export function sharedPath(path: string, vault: string | null, sep: string = platformSep): string {
  return vault ? sharedText(path, vault, sep) : path;
}

/** `value` with sharedText applied to every string in it (object keys too); parts that hold none are the same objects. */
function mapStrings(value: unknown, map: (s: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = mapStrings(value[i], map);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  if (value && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([k, v]) => {
      const [mk, mv] = [map(k), mapStrings(v, map)];
      if (mk !== k || mv !== v) changed = true;
      return [mk, mv] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

/**
 * A session as it is shared: every path below the vault named as sharedText names it, wherever the reader put it
 * (source files, artifacts, the project, warnings). Only a session with a file in the vault is walked.
 */
export function withSharedPaths<T extends { sourceFiles: ReadonlyArray<{ path: string }> }>(session: T, vault: string | null, sep: string = platformSep): T {
  if (!vault || !session.sourceFiles.some((f) => f.path.includes(vault))) return session;
  return mapStrings(session, (s) => sharedText(s, vault, sep)) as T;
}

/** The session without the files in `drop` (the roots check refused them): not among its source files, no artifact resolved to one. */
export function withoutFiles<T extends { sourceFiles: ReadonlyArray<{ path: string }>; artifacts: ReadonlyArray<{ resolvedPath: string | null }> }>(
  session: T,
  drop: ReadonlySet<string>,
): T {
  if (!drop.size) return session;
  return {
    ...session,
    sourceFiles: session.sourceFiles.filter((f) => !drop.has(f.path)),
    artifacts: session.artifacts.map((a) => (a.resolvedPath && drop.has(a.resolvedPath) ? { ...a, resolvedPath: null } : a)),
  };
}
