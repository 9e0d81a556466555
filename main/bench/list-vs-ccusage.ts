// The command line as a new user meets it: `session-vault list --json` cold (fresh data folder) and warm, and ccusage over the same Claude Code files.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { builtFile } from './built.ts';
import { timedProcess, type ProcessRun } from './timed-process.ts';

const repo = resolve(import.meta.dirname, '..', '..');
export const CLI = builtFile('main/cli.js');
const CCUSAGE = join(repo, 'node_modules', 'ccusage', 'dist', 'cli.js');

export interface ListRuns {
  cold: ProcessRun;
  warm: ProcessRun;
  listed: number;
}

/** `list --json` over `root` alone, twice: into a fresh data folder, then again with the index it left. */
export async function listColdWarm(root: string): Promise<ListRuns> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm run bench\` does).`);
  const home = await mkdtemp(join(tmpdir(), 'sv-bench-list-'));
  try {
    const env = { ...process.env, SESSION_VAULT_HOME: join(home, 'data'), HOME: home };
    const args = [CLI, 'list', '--json', '--no-defaults', '--root', root];
    const cold = await timedProcess(process.execPath, args, env);
    const warm = await timedProcess(process.execPath, args, env);
    return { cold, warm, listed: (JSON.parse(warm.stdout) as unknown[]).length };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** `ccusage claude session --offline --json` over a Claude Code folder (ccusage keeps no cache: every run is cold). */
export async function ccusageSessions(claudeDir: string): Promise<ProcessRun & { sessions: number }> {
  const home = await mkdtemp(join(tmpdir(), 'sv-bench-ccusage-'));
  try {
    const env = { PATH: process.env.PATH ?? '', HOME: home, CLAUDE_CONFIG_DIR: claudeDir, NO_COLOR: '1' };
    const r = await timedProcess(process.execPath, [CCUSAGE, 'claude', 'session', '--offline', '--json'], env);
    return { ...r, sessions: ((JSON.parse(r.stdout) as { sessions?: unknown[] }).sessions ?? []).length };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
