// The tools' standard session folders, honouring each tool's own override variable; used when they exist.
import { join } from 'node:path';
import { homedir } from 'node:os';
import type { SourceFormat } from '../../shared/session.ts';

export interface DefaultRoot {
  path: string;
  format: SourceFormat;
}

export function defaultRootCandidates(env: NodeJS.ProcessEnv): DefaultRoot[] {
  const home = env.HOME ?? homedir();
  const pick = (value: string | undefined, fallback: string) => (value?.trim() ? value.trim() : fallback);
  return [
    // Claude Code keeps transcripts under <config dir>/projects; CLAUDE_CONFIG_DIR moves the config dir.
    { path: join(pick(env.CLAUDE_CONFIG_DIR, join(home, '.claude')), 'projects'), format: 'claude-code' },
    // Codex: CODEX_HOME (default ~/.codex) holds sessions/YYYY/MM/DD and archived_sessions/.
    { path: join(pick(env.CODEX_HOME, join(home, '.codex')), 'sessions'), format: 'codex' },
    { path: join(pick(env.CODEX_HOME, join(home, '.codex')), 'archived_sessions'), format: 'codex' },
    // Gemini CLI: GEMINI_CLI_HOME replaces the home directory; chats live in .gemini/tmp/<project>/chats.
    { path: join(pick(env.GEMINI_CLI_HOME, home), '.gemini', 'tmp'), format: 'gemini' },
    // ai-agent: snapshots (v1/v2 .json.gz) and the v3 ledger share ~/.ai-agent/sessions.
    { path: join(home, '.ai-agent', 'sessions'), format: 'ai-agent' },
    { path: join(home, '.jido_code', 'sessions'), format: 'jido-code' },
  ];
}
