// Reads OpenClaw transcripts (~/.openclaw/agents/<agentId>/sessions/<id>.jsonl, and archived copies) with the Pi parser.
import { join } from 'node:path';
import type { Session } from '../../../shared/session.ts';
import { readJsonLines } from '../jsonl.ts';
import { statSessionFile } from '../pi/pi.ts';
import { buildPiSession } from '../pi/pi-session.ts';
import type { SourceReader } from '../types.ts';
import { claimsOpenClaw, isOpenClawCompanion, openClawFileOf } from './openclaw-paths.ts';

/** OpenClaw writes Pi's session format (it runs Pi's agent); only the layout and the archives are its own. */
export async function readOpenClawFile(absPath: string, now = Date.now()): Promise<Session> {
  const info = await statSessionFile(absPath);
  const { records, warnings } = await readJsonLines(absPath);
  const file = openClawFileOf(absPath);
  const extra: Record<string, unknown> = {};
  if (file) extra.agentId = file.agentId;
  if (file?.kind === 'archive') extra.archived = file.reason;
  return buildPiSession(
    records,
    { path: absPath, ...info, warnings },
    {
      format: 'openclaw',
      fileId: file?.sessionId ?? absPath.replace(/^.*[\\/]/, '').replace(/\.jsonl$/, ''),
      now,
      parentKey: null,
      childKeys: [],
      fallbackTitle: null,
      extra,
      archived: file?.kind === 'archive' ? { reason: file.reason, at: file.at } : null,
      extraFiles: [],
    },
  );
}

/** `OPENCLAW_DIR` (ccusage, comma-separated) or `OPENCLAW_STATE_DIR` moves the home; older installs used other names. */
function homes(env: NodeJS.ProcessEnv, home: string): string[] {
  const listed = (env.OPENCLAW_DIR ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (listed.length) return listed;
  const state = env.OPENCLAW_STATE_DIR?.trim();
  if (state) return [state];
  return ['.openclaw', '.clawdbot', '.moltbot', '.moldbot'].map((name) => join(home, name));
}

export const openClawReader: SourceReader = {
  format: 'openclaw',
  capabilities: { tokens: true, recordedCost: true, subAgents: false, toolResults: true, thinking: true, images: true },
  defaultRoots: (env, home) => homes(env, home).map((h) => join(h, 'agents')),
  // `openclaw resume` attaches to a Gateway session by its key or label, which the transcript does not record.
  resumeCommand: () => null,
  claims: claimsOpenClaw,
  companion: isOpenClawCompanion,
  read: (absPath) => readOpenClawFile(absPath),
};
