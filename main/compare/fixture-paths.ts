// The paired fixture sessions: one task done in Claude Code (A) and in Codex (B), for the comparison's tests.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const COMPARE_FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures');
export const CLAUDE_FILE = join(COMPARE_FIXTURES, 'claude/projects/-home-dev-src-harbor-api/5b0d7c1e-3f2a-4c8d-9e6b-1a2b3c4d5e60.jsonl');
export const CODEX_FILE = join(COMPARE_FIXTURES, 'codex/sessions/2026/03/02/rollout-2026-03-02T10-00-00-0195a000-1111-7000-8000-00000000c0de.jsonl');
export const CLAUDE_KEY = 'claude-code:5b0d7c1e-3f2a-4c8d-9e6b-1a2b3c4d5e60';
export const CODEX_KEY = 'codex:0195a000-1111-7000-8000-00000000c0de';
