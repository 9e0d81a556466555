// Default folders follow each tool's override variable, falling back to the home directory.
import { describe, expect, it } from 'vitest';
import { defaultRootCandidates } from './default-roots.ts';

describe('defaultRootCandidates', () => {
  it('uses the home directory when no override is set, every agent in the order the app lists them', () => {
    const paths = defaultRootCandidates({ HOME: '/home/u' }).map((r) => `${r.format} ${r.path}`);
    expect(paths.slice(0, 4)).toEqual([
      'claude-code /home/u/.claude/projects',
      'codex /home/u/.codex/sessions',
      'codex /home/u/.codex/archived_sessions',
      'gemini /home/u/.gemini/tmp',
    ]);
    expect(paths).toContain('ai-agent /home/u/.ai-agent/sessions');
    expect(paths).toContain('jido-code /home/u/.jido_code/sessions');
    expect(paths.every((p) => p.split(' ')[1]!.startsWith('/'))).toBe(true);
    // Every agent with a machine-wide folder has at least one (Vizier, ProjectHub and Aider live in the user's repositories).
    const formats = new Set(paths.map((p) => p.split(' ')[0]));
    for (const f of [
      'opencode',
      'copilot-cli',
      'cursor',
      'qwen-code',
      'kimi',
      'pi',
      'openclaw',
      'grok',
      'droid',
      'hermes',
      'goose',
      'amp',
      'codebuff',
      'cline',
      'roo-code',
      'vibe',
      'kilo',
      'devin',
      'antigravity',
    ]) {
      expect(formats.has(f), f).toBe(true);
    }
  });

  it('honours CLAUDE_CONFIG_DIR, CODEX_HOME and GEMINI_CLI_HOME', () => {
    const roots = defaultRootCandidates({ HOME: '/home/u', CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: '/cfg/codex', GEMINI_CLI_HOME: '/alt' });
    expect(roots.find((r) => r.format === 'claude-code')?.path).toBe('/cfg/claude/projects');
    expect(roots.filter((r) => r.format === 'codex').map((r) => r.path)).toEqual(['/cfg/codex/sessions', '/cfg/codex/archived_sessions']);
    expect(roots.find((r) => r.format === 'gemini')?.path).toBe('/alt/.gemini/tmp');
  });
});
