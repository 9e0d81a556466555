// The active branch of a Pi session tree: the path from the last entry written back to its root, as Pi itself resumes it.
import { isRecord, type WarningList } from '../coerce.ts';
import type { PiEntry } from './pi-entries.ts';

export interface PiBranch {
  /** Entries on the active branch, in file order (a parent is always written before its children). */
  path: PiEntry[];
  /** Entries on branches the session left (a rewind or `/tree` jump kept them in the file). */
  offBranch: PiEntry[];
}

/**
 * Pi appends every entry as a child of the current leaf; moving back in the tree and continuing starts a new
 * branch while the old one stays in the file. The last entry is the leaf the session ended on. A parent id that
 * names no entry (some writers name the header, or a tool call) is read as "the entry before it in the file"; only one
 * that names neither is reported.
 */
/** The ids of the tool calls the entries' messages make (OpenClaw parents a tool's result on its call). */
function toolCallIds(entries: readonly PiEntry[]): Set<string> {
  const ids = new Set<string>();
  for (const entry of entries) {
    const message = entry.rec.raw.message;
    const content = isRecord(message) ? message.content : null;
    if (!Array.isArray(content)) continue;
    for (const block of content) if (isRecord(block) && block.type === 'toolCall' && typeof block.id === 'string') ids.add(block.id);
  }
  return ids;
}

export function activeBranch(entries: readonly PiEntry[], headerId: string | null, warnings: WarningList): PiBranch {
  const byId = new Map<string, PiEntry>();
  for (const entry of entries) byId.set(entry.id, entry);
  let calls: Set<string> | undefined;
  const onPath = new Set<PiEntry>();
  let broken = 0;
  let current = entries.at(-1);
  while (current && !onPath.has(current)) {
    onPath.add(current);
    const parentId = current.parentId;
    if (parentId === null) break;
    const parent = byId.get(parentId);
    if (parent && parent !== current) {
      current = parent;
      continue;
    }
    if (parentId !== headerId && !(calls ??= toolCallIds(entries)).has(parentId)) broken++;
    current = current.index > 0 ? entries[current.index - 1] : undefined;
  }
  if (broken > 0) {
    const what = broken === 1 ? 'One entry names a parent' : `${broken} entries name a parent`;
    const placed = broken === 1 ? 'it was' : 'each was';
    warnings.add('unknown_parent', `${what} that no entry of this file has; ${placed} placed after the entry before it.`);
  }
  return { path: entries.filter((e) => onPath.has(e)), offBranch: entries.filter((e) => !onPath.has(e)) };
}
