// oh-my-pi sub-agents: a parent's transcripts in the folder named after it, and a sub-agent's parent beside its folder.
import { basename, dirname, join } from 'node:path';
import { companionInside } from '../companion.ts';
import { listFolder } from '../file-bytes.ts';
import { readHead } from '../head.ts';
import { fileIdOf } from './pi-paths.ts';

/** The session id a Pi-format file's header gives (after oh-my-pi's title slot), else the one its name gives. */
export async function headerIdOf(absPath: string): Promise<string> {
  try {
    const header = (await readHead(absPath)).records(2).find((r) => r.type === 'session');
    if (typeof header?.id === 'string' && header.id) return header.id;
  } catch {
    // unreadable: the name still identifies it
  }
  return fileIdOf(absPath);
}

/** The key of the session whose folder holds this sub-agent's file; null when that parent file is not there. */
export async function parentKeyOf(parentFile: string, childPath: string): Promise<string | null> {
  // Parent and child share the project folder; a parent linked in from elsewhere is not this sub-agent's parent.
  if (!(await companionInside(parentFile, dirname(dirname(childPath))))) return null;
  return `pi:${await headerIdOf(parentFile)}`;
}

/** Keys of the sub-agent transcripts in `<file without .jsonl>/`, in name order. */
export async function childKeysOf(absPath: string): Promise<string[]> {
  const folder = absPath.replace(/\.jsonl$/, '');
  let names: string[];
  try {
    names = await listFolder(folder);
  } catch {
    return []; // most sessions spawned no sub-agent
  }
  const files = names.filter((n) => n.endsWith('.jsonl') && !n.startsWith('.')).sort();
  const keys: string[] = [];
  for (const name of files) {
    const path = join(folder, name);
    if (await companionInside(path, folder)) keys.push(`pi:${await headerIdOf(path)}`);
  }
  return keys;
}

/** The sub-agent's name as oh-my-pi gives it: its file name. */
export function agentNameOf(absPath: string): string {
  return basename(absPath).replace(/\.jsonl$/, '');
}
