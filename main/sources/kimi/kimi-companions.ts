// Reads the files beside a Kimi session (wire.jsonl, state.json, meta.json), only where they stay in the session's folder.
import { basename, join } from 'node:path';
import type { SourceFile, Warning } from '../../../shared/session.ts';
import { isRecord } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { readJsonFile } from '../decode.ts';
import { listFolder, statPath } from '../file-bytes.ts';
import { readJsonLines, type JsonLine } from '../jsonl.ts';

export type Companion<T> = { value: T; file: SourceFile } | { problem: string } | null;

async function sourceFile(path: string, role: SourceFile['role']): Promise<SourceFile> {
  const info = await statPath(path);
  return { path, size: info.size, mtimeMs: info.mtimeMs, role };
}

/** A JSON object file in the session's folder; null when absent (or linked from elsewhere), a problem when unusable. */
export async function readObjectCompanion(path: string, folder: string): Promise<Companion<Record<string, unknown>>> {
  if (!(await companionInside(path, folder))) return null;
  try {
    const { value } = await readJsonFile(path);
    if (!isRecord(value)) return { problem: `${basename(path)} does not hold a JSON object` };
    return { value, file: await sourceFile(path, 'meta') };
  } catch (err) {
    return { problem: `${basename(path)} cannot be read (${(err as Error).message})` };
  }
}

/** A JSONL companion (kimi-cli's wire.jsonl): its records and decoding warnings. */
export async function readLinesCompanion(path: string, folder: string): Promise<Companion<{ records: JsonLine[]; warnings: Warning[] }>> {
  if (!(await companionInside(path, folder))) return null;
  try {
    const { records, warnings } = await readJsonLines(path);
    return { value: { records, warnings }, file: await sourceFile(path, 'transcript') };
  } catch (err) {
    return { problem: `${basename(path)} cannot be read (${(err as Error).message})` };
  }
}

/** Sub-folders of `folder` holding a `file` (sub-agent instances), in name order; none when the folder is absent. */
export async function foldersWith(folder: string, file: string): Promise<string[]> {
  let names: string[];
  try {
    names = await listFolder(folder);
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const name of names.sort()) {
    if (name.startsWith('.')) continue;
    if (await companionInside(join(folder, name, file), folder)) found.push(name);
  }
  return found;
}
