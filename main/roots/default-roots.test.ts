// Default folders follow each tool's override variable, falling back to the home directory.
import { describe, expect, it } from 'vitest';
import { defaultRootCandidates } from './default-roots.ts';

describe('defaultRootCandidates', () => {
  it('uses the home directory when no override is set', () => {
    const paths = defaultRootCandidates({ HOME: '/home/u' }).map((r) => `${r.format} ${r.path}`);
    expect(paths).toEqual([
      'claude-code /home/u/.claude/projects',
      'codex /home/u/.codex/sessions',
      'codex /home/u/.codex/archived_sessions',
      'gemini /home/u/.gemini/tmp',
      'ai-agent /home/u/.ai-agent/sessions',
      'jido-code /home/u/.jido_code/sessions',
    ]);
  });

  it('honours CLAUDE_CONFIG_DIR, CODEX_HOME and GEMINI_CLI_HOME', () => {
    const roots = defaultRootCandidates({ HOME: '/home/u', CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: '/cfg/codex', GEMINI_CLI_HOME: '/alt' });
    expect(roots.find((r) => r.format === 'claude-code')?.path).toBe('/cfg/claude/projects');
    expect(roots.filter((r) => r.format === 'codex').map((r) => r.path)).toEqual(['/cfg/codex/sessions', '/cfg/codex/archived_sessions']);
    expect(roots.find((r) => r.format === 'gemini')?.path).toBe('/alt/.gemini/tmp');
  });
});
