// Files each session touched (A/M/D/R from operations' VCS facts and edit tools' arguments; `read` when only read) as a set diff.
import type { Session } from '../session.ts';
import type { FileRow } from './comparison.ts';
import { patchFiles, relativePath, toolFamily, toolTarget } from './tools.ts';

const ORDER = ['A', 'M', 'D', 'R', 'read'];

/** apply_patch carries its patch as the whole input (Codex) or in an `input`/`patch` argument. */
function patchText(input: unknown): string | null {
  if (typeof input === 'string') return input;
  const args = input && typeof input === 'object' ? (input as Record<string, unknown>) : null;
  const text = args?.input ?? args?.patch;
  return typeof text === 'string' ? text : null;
}

/** Path (relative to the project where it lies inside) → what happened to it. */
export function touchedFiles(session: Session): Map<string, Set<string>> {
  const project = session.project.path;
  const files = new Map<string, Set<string>>();
  const mark = (path: string, change: string) => {
    const p = relativePath(path, project);
    const set = files.get(p) ?? new Set<string>();
    set.add(change);
    files.set(p, set);
  };
  for (const op of session.operations) {
    if (!op.vcs) continue;
    const { A, M, D, R } = op.vcs.staged;
    for (const p of A) mark(p, 'A');
    for (const p of M) mark(p, 'M');
    for (const p of D) mark(p, 'D');
    for (const r of R) mark(r.to, 'R');
  }
  for (const message of session.messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool_call') continue;
      const family = toolFamily(part.name);
      if (family !== 'edit' && family !== 'write' && family !== 'read') continue;
      const patch = patchText(part.input);
      const patched = patch ? patchFiles(patch) : [];
      if (patched.length > 0) {
        for (const f of patched) mark(f.path, f.change);
        continue;
      }
      const target = toolTarget(family, part.input, project);
      if (!target) continue;
      // A file written before anything else touched it is most likely new.
      const change = family === 'read' ? 'read' : family === 'write' && !files.has(target) ? 'A' : 'M';
      mark(target, change);
    }
  }
  // `read` only stands where nothing else happened to the file.
  for (const set of files.values()) if (set.size > 1) set.delete('read');
  return files;
}

const sorted = (set: Set<string> | undefined) => (set ? [...set].sort((x, y) => ORDER.indexOf(x) - ORDER.indexOf(y)) : []);

export function fileRows(a: Session, b: Session): FileRow[] {
  const fa = touchedFiles(a);
  const fb = touchedFiles(b);
  const paths = [...new Set([...fa.keys(), ...fb.keys()])].sort();
  return paths.map((path) => {
    const ca = sorted(fa.get(path));
    const cb = sorted(fb.get(path));
    const status = ca.length === 0 ? 'only-b' : cb.length === 0 ? 'only-a' : ca.join() === cb.join() ? 'same' : 'changed';
    return { path, a: ca, b: cb, status };
  });
}
