// Lets a bundle (export, review scan) take only the session files that pass the roots check; the rest are named in the review as refused.
import type { BundleRefusedFile } from '../../shared/bundle-api.ts';
import { AppError } from '../../shared/result.ts';
import type { SessionFileCheck } from '../roots/session-files.ts';
import type { PreparedSession } from './prepare-session.ts';
import type { ClosableLoader } from './worker-loader.ts';

/**
 * Keeps in a prepared session's head only the files whose real path lies inside a known root, and lists the rest
 * (and every artifact its reader refused) as refused: they are never read, scanned or written. A session whose own
 * file lies outside every root is refused whole.
 */
export async function gatePrepared(prepared: PreparedSession, files: SessionFileCheck): Promise<PreparedSession> {
  const { head } = prepared;
  const refused: BundleRefusedFile[] = [];
  for (const a of head.artifacts) if (a.refused) refused.push({ session: head.key, path: a.path, reason: a.refused });
  const named = [...head.sourceFiles.map((f) => f.path), ...head.artifacts.flatMap((a) => (a.resolvedPath ? [a.resolvedPath] : []))];
  const { inside, outside } = await files.partition(named);
  const primary = head.sourceFiles[0];
  if (primary && !inside.has(primary.path)) {
    throw new AppError('OUTSIDE_ROOTS', `Refusing to export ${head.key}: its file ${primary.path} is outside every known session folder.`);
  }
  for (const o of outside) refused.push({ session: head.key, path: o.path, reason: o.reason });
  const sourceFiles = head.sourceFiles.filter((f) => inside.has(f.path));
  const artifacts = head.artifacts.map((a) => (a.resolvedPath && !inside.has(a.resolvedPath) ? { ...a, resolvedPath: null } : a));
  return { ...prepared, head: { ...head, sourceFiles, artifacts }, refused };
}

/** A loader whose every session passes `gatePrepared`: what the app's exports, drag-outs, CLI exports and review scans read through. */
export function gatedLoader(loader: ClosableLoader, files: SessionFileCheck): ClosableLoader {
  return {
    prepare: async (key, scan) => {
      const prepared = await loader.prepare(key, scan);
      try {
        return await gatePrepared(prepared, files);
      } catch (err) {
        if (prepared.json) loader.recycle?.(prepared.json);
        throw err;
      }
    },
    recycle: (json) => loader.recycle?.(json),
    close: () => loader.close(),
  };
}
