// The one check every file operation on a session passes (raw view, export, review scan, keep, delete): its real path lies inside a known root.
import { AppError } from '../../shared/result.ts';
import { canonical, isWithin } from './paths.ts';
import { storeOf } from '../catalogue/contained-sessions.ts';

/** A file a session named that an operation left alone, and why. */
export interface OutsideFile {
  path: string;
  reason: string;
}

export const OUTSIDE_ROOTS_REASON = 'is outside every folder you added (its real path, links followed); it was left alone';

/**
 * Roots are the folders the user (or discovery) added plus the vault's own folders; both sides are compared as
 * real paths, so neither a `..` in a name nor a symlink inside a root can reach a file outside every root.
 */
export class SessionFileCheck {
  private readonly roots: () => readonly string[];
  private readonly rootsAreReal: boolean;

  /** `rootsAreReal`: the roots are real paths already (`resolvedRoots()` of another check), not resolved again. */
  constructor(roots: () => readonly string[], rootsAreReal = false) {
    this.roots = roots;
    this.rootsAreReal = rootsAreReal;
  }

  /**
   * The roots as real paths now: one operation over many sessions (a push) resolves them once and hands them to
   * its worker's check (`rootsAreReal`); they must not outlive it (a root changed later is the next one's to see).
   */
  resolvedRoots(): Promise<string[]> {
    return this.realRoots();
  }

  /** The real path of `path` when it lies inside a root, else null. A session inside a store (`<store>#<id>`) is judged by its store. */
  async realInside(path: string, roots?: readonly string[]): Promise<string | null> {
    const [real, allowed] = await Promise.all([canonical(storeOf(path)), roots ?? this.realRoots()]);
    return allowed.some((root) => isWithin(root, real)) ? real : null;
  }

  /** The roots as real paths (a root that does not exist yet as written). */
  private realRoots(): Promise<string[]> {
    if (this.rootsAreReal) return Promise.resolve([...this.roots()]);
    return Promise.all(this.roots().map(canonical));
  }

  /** The real path, or an OUTSIDE_ROOTS error saying what was refused (`doing`: read, keep, delete, …). */
  async assertInside(path: string, doing: string): Promise<string> {
    const real = await this.realInside(path);
    if (real === null) throw new AppError('OUTSIDE_ROOTS', `Refusing to ${doing} ${path}: it is outside every known session folder.`);
    return real;
  }

  /** Checks every path before anything is done to any of them: the first one outside refuses the whole operation. */
  async assertAllInside(paths: readonly string[], doing: string): Promise<void> {
    for (const path of paths) await this.assertInside(path, doing);
  }

  /** Splits paths into those inside a root and those refused, with the reason. */
  async partition(paths: Iterable<string>): Promise<{ inside: Set<string>; outside: OutsideFile[] }> {
    const unique = [...new Set(paths)];
    const roots = await this.realRoots();
    const real = await Promise.all(unique.map((p) => this.realInside(p, roots)));
    const inside = new Set<string>();
    const outside: OutsideFile[] = [];
    unique.forEach((path, i) => {
      if (real[i] === null) outside.push({ path, reason: OUTSIDE_ROOTS_REASON });
      else inside.add(path);
    });
    return { inside, outside };
  }
}
