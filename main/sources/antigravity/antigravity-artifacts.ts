// Finds a conversation's Markdown brain artifacts (task, plan, walkthrough): in its own CLI brain folder and the IDE's folder of the same id.
import { join, relative } from 'node:path';
import type { Artifact, SourceFile } from '../../../shared/session.ts';
import { companionInside } from '../companion.ts';
import { listFolder, statPath } from '../file-bytes.ts';
import { ideBrainDirOf } from './antigravity-layout.ts';

export interface BrainArtifacts {
  artifacts: Artifact[];
  files: SourceFile[];
}

/** The `*.md` files directly in `dir`, each used only when its real path stays inside `within`. */
async function markdownIn(dir: string, within: string, shownFrom: string, out: BrainArtifacts): Promise<void> {
  let names: string[];
  try {
    names = await listFolder(dir);
  } catch {
    return; // no such folder: nothing written yet, or no IDE conversation of that id
  }
  for (const name of names.filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort()) {
    const path = join(dir, name);
    if (!(await companionInside(path, within))) continue;
    try {
      const info = await statPath(path);
      if (!info.isFile()) continue;
      out.artifacts.push({ path: relative(shownFrom, path), kind: 'markdown', resolvedPath: path, size: info.size });
      out.files.push({ path, size: info.size, mtimeMs: info.mtimeMs, role: 'artifact' });
    } catch {
      // vanished between the listing and the stat
    }
  }
}

/**
 * The CLI's own brain folder, then the IDE's folder for the same conversation id (older agy builds wrote their
 * artifacts there). Both lie under the same `.gemini` folder; a file linked to anywhere else is not read.
 */
export async function brainArtifacts(conversationDir: string): Promise<BrainArtifacts> {
  const out: BrainArtifacts = { artifacts: [], files: [] };
  await markdownIn(conversationDir, conversationDir, conversationDir, out);
  const ide = ideBrainDirOf(conversationDir);
  if (ide) await markdownIn(ide.dir, ide.gemini, ide.gemini, out);
  return out;
}
