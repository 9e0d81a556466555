// Reads workspace.yaml beside a Copilot CLI events.jsonl: the session's name, summary and folder, as the CLI keeps them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceFile } from '../../../shared/session.ts';
import { isRecord } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { statPath } from '../file-bytes.ts';

export interface CopilotWorkspace {
  /** Set by `/rename` (or by Copilot Desktop from the first prompt). */
  name: string | null;
  /** The summary the CLI generated for the session list. */
  summary: string | null;
  cwd: string | null;
  branch: string | null;
  /** `github/cli`, or `github/autopilot` for Copilot Desktop. */
  clientName: string | null;
  file: SourceFile;
}

export type WorkspaceResult = { ok: true; workspace: CopilotWorkspace } | { ok: false; reason: string } | null;

function text(doc: Record<string, unknown>, key: string): string | null {
  const v = doc[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** Parses workspace.yaml's text; null when it is not a mapping. The YAML parser is loaded by the first workspace read (not by every thread that loads the readers). */
export async function parseWorkspace(source: string): Promise<Omit<CopilotWorkspace, 'file'> | null> {
  const { parse } = await import('yaml');
  const doc: unknown = parse(source);
  if (!isRecord(doc)) return null;
  return {
    name: text(doc, 'name'),
    summary: text(doc, 'summary'),
    cwd: text(doc, 'cwd'),
    branch: text(doc, 'branch'),
    clientName: text(doc, 'client_name'),
  };
}

/**
 * The session folder's workspace.yaml: null when there is none (or it is a link to a file outside the folder,
 * which is not this session's), a reason when it cannot be used.
 */
export async function readWorkspace(sessionFolder: string): Promise<WorkspaceResult> {
  const path = join(sessionFolder, 'workspace.yaml');
  if (!(await companionInside(path, sessionFolder))) return null;
  try {
    const [source, info] = await Promise.all([readFile(path, 'utf8'), statPath(path)]);
    const fields = await parseWorkspace(source);
    if (!fields) return { ok: false, reason: 'workspace.yaml is not a YAML mapping' };
    return { ok: true, workspace: { ...fields, file: { path, size: info.size, mtimeMs: info.mtimeMs, role: 'meta' } } };
  } catch (err) {
    return { ok: false, reason: `workspace.yaml cannot be read (${(err as Error).message.split('\n')[0]})` };
  }
}
