// The command that resumes a session in its own tool, offered only when the project folder is there and the session is idle.
import { ACTIVE_WINDOW_MS } from '../../shared/activity.ts';
import { stat } from 'node:fs/promises';
import type { SessionSummary } from '../../shared/session.ts';
import type { ResumeInfo } from '../../shared/vault-api.ts';

/** How each tool resumes a session by id; null where the tool has no such command. */
function commandFor(format: SessionSummary['format'], id: string): string | null {
  const quoted = /^[A-Za-z0-9._:-]+$/.test(id) ? id : `'${id.replace(/'/g, `'\\''`)}'`;
  switch (format) {
    case 'claude-code':
      return `claude --resume ${quoted}`;
    case 'codex':
      return `codex resume ${quoted}`;
    case 'vizier':
      return `vizier --session ${quoted}`;
    case 'gemini':
      return `gemini --resume ${quoted}`;
    case 'jido-code':
      return `jido_code  # then: /resume ${quoted}`;
    default:
      return null;
  }
}

export async function resumeInfo(summary: SessionSummary, now = Date.now()): Promise<ResumeInfo> {
  const command = summary.format === 'claude-code' && summary.parentKey ? null : commandFor(summary.format, summary.id);
  const cwd = summary.projectPath;
  if (!command) return { command: null, cwd, available: false, reason: `${summary.format} sessions cannot be resumed by id.` };
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
