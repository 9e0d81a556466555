// The command that resumes a session in its own tool, offered only when the project folder is there and the session is idle.
import { ACTIVE_WINDOW_MS } from '../../shared/activity.ts';
import { stat } from 'node:fs/promises';
import type { SessionSummary } from '../../shared/session.ts';
import { FORMAT_LABELS } from '../../shared/source-formats.ts';
import type { ResumeInfo } from '../../shared/vault-api.ts';
import { readers } from '../sources/registry.ts';

export async function resumeInfo(summary: SessionSummary, now = Date.now()): Promise<ResumeInfo> {
  const reader = readers.find((r) => r.format === summary.format);
  const command = reader?.resumeCommand({ id: summary.id, isSubAgent: summary.parentKey !== null }) ?? null;
  const cwd = summary.projectPath;
  if (!command) {
    const reason =
      summary.parentKey !== null ? 'A sub-agent is resumed through its parent session.' : `${FORMAT_LABELS[summary.format]} sessions cannot be resumed by id.`;
    return { command: null, cwd, available: false, reason };
  }
  const recent = now - summary.mtimeMs < ACTIVE_WINDOW_MS;
  if (summary.status === 'active' || (summary.status === 'open' && recent)) {
    return { command, cwd, available: false, reason: 'The session is still being written (active); resume it once it is idle.' };
  }
  if (!cwd) return { command, cwd, available: false, reason: 'The session records no project folder to resume in.' };
  try {
    if (!(await stat(cwd)).isDirectory()) return { command, cwd, available: false, reason: `The project path is not a directory: ${cwd}` };
  } catch {
    return { command, cwd, available: false, reason: `The project folder no longer exists: ${cwd}` };
  }
  return { command, cwd, available: true, reason: null };
}
