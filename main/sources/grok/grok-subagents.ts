// Grok's sub-agent links: a parent lists each child in <parent>/subagents/<childId>/meta.json; the child is a sibling session folder.
import { basename, dirname, join } from 'node:path';
import type { SourceFile } from '../../../shared/session.ts';
import { isRecord } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { readJsonFile } from '../decode.ts';
import { listFolder, statPath } from '../file-bytes.ts';

export interface SubagentLink {
  parentId: string;
  subagentType: string | null;
  description: string | null;
  /** The parent's meta.json that records the link. */
  file: SourceFile;
}

export function grokKey(id: string): string {
  return `grok:${id}`;
}

const ID = /^[A-Za-z0-9_-]+$/;

/** The children this session spawned: one folder per child id under its subagents/ folder. */
export async function childIds(sessionDir: string): Promise<string[]> {
  try {
    return (await listFolder(join(sessionDir, 'subagents'))).filter((name) => ID.test(name)).sort();
  } catch {
    return []; // most sessions spawn none
  }
}

async function readLink(meta: string, bucket: string, siblingId: string): Promise<SubagentLink | null> {
  if (!(await companionInside(meta, bucket))) return null;
  try {
    const [info, { value }] = await Promise.all([statPath(meta), readJsonFile(meta)]);
    const text = (k: string) => (isRecord(value) && typeof value[k] === 'string' && value[k] !== '' ? (value[k] as string) : null);
    // The link is made by where the file lies; the recorded parent id wins when there is one.
    return {
      parentId: text('parent_session_id') ?? siblingId,
      subagentType: text('subagent_type'),
      description: text('description'),
      file: { path: meta, size: info.size, mtimeMs: info.mtimeMs, role: 'meta' },
    };
  } catch {
    return null;
  }
}

/**
 * The session that spawned this one. The child's own summary.json does not name it: the parent's tree does, so the
 * sibling folders of the same working directory are asked (only for sessions whose summary says they are sub-agents).
 */
export async function findParent(sessionDir: string): Promise<SubagentLink | null> {
  const bucket = dirname(sessionDir);
  const own = basename(sessionDir);
  let siblings: string[];
  try {
    siblings = await listFolder(bucket);
  } catch {
    return null;
  }
  for (const sibling of siblings.sort()) {
    if (sibling === own || !ID.test(sibling)) continue;
    const link = await readLink(join(bucket, sibling, 'subagents', own, 'meta.json'), bucket, sibling);
    if (link) return link;
  }
  return null;
}

/** This session's record of one child (its type and description), when the parent wrote one. */
export async function readChildMeta(sessionDir: string, childId: string): Promise<SubagentLink | null> {
  return readLink(join(sessionDir, 'subagents', childId, 'meta.json'), sessionDir, basename(sessionDir));
}
