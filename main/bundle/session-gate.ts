// Lets a bundle (export, review scan) take only the session files that pass the roots check; the rest are named in the review as refused.
import type { BundleRefusedFile } from '../../shared/bundle-api.ts';
import { AppError } from '../../shared/result.ts';
import { OUTSIDE_ROOTS_REASON, type SessionFileCheck } from '../roots/session-files.ts';
import type { PreparedSession, ShareSpec } from './prepare-session.ts';
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

/**
 * Prepares a session (`prepare`, with its files named as shared) so that it passes `gatePrepared`: when the roots
 * check refuses some of its files, it is prepared again without them, so session.json does not name them either
 * (they are named only in the review). `letGo` takes back a prepared session.json that is not handed on.
 */
export async function prepareGated(
  key: string,
  prepare: (share: ShareSpec) => Promise<PreparedSession>,
  files: SessionFileCheck,
  vault: string | null,
  letGo: (prepared: PreparedSession) => void,
): Promise<PreparedSession> {
  const gated = async (prepared: PreparedSession) => {
    try {
      return await gatePrepared(prepared, files);
    } catch (err) {
      letGo(prepared);
      throw err;
    }
  };
  const first = await gated(await prepare({ vault }));
  const drop = (first.refused ?? []).filter((r) => r.reason === OUTSIDE_ROOTS_REASON).map((r) => r.path);
  if (!drop.length) return first;
  letGo(first);
  const again = await gated(await prepare({ vault, drop }));
  const more = (again.refused ?? []).filter((r) => r.reason === OUTSIDE_ROOTS_REASON);
  if (more.length) {
    letGo(again);
    throw new AppError(
      'OUTSIDE_ROOTS',
      `Refusing to export ${key}: its files changed while it was read (${more[0]?.path ?? ''} is outside every known session folder).`,
    );
  }
  return { ...again, refused: first.refused ?? [] };
}

/**
 * A loader whose every session passes `gatePrepared` (`prepareGated`): what the app's exports, drag-outs, CLI
 * exports, review scans and team pushes read through. A push's sessions are checked in the loader's worker,
 * against the roots resolved to real paths once for the loader (one push: a root changed later is seen by the next).
 */
export function gatedLoader(loader: ClosableLoader, files: SessionFileCheck, vault: string | null = null): ClosableLoader {
  const letGo = (prepared: PreparedSession) => {
    if (prepared.json) loader.recycle?.(prepared.json);
  };
  let roots: Promise<string[]> | null = null;
  const push = loader.preparePush?.bind(loader);
  return {
    prepare: (key, scan) => prepareGated(key, (share) => loader.prepare(key, scan, share), files, vault, letGo),
    ...(push && { preparePush: async (key, scan, spec) => push(key, scan, spec, { roots: await (roots ??= files.resolvedRoots()), vault }) }),
    recycle: (json) => loader.recycle?.(json),
    close: () => loader.close(),
  };
}
