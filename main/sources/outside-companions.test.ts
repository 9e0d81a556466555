// Issue #20.1 in the readers: companion files and artifacts count only when their real path stays in the session's own folder.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readClaudeCodeFile } from './claude-code/claude-code.ts';
import { readGeminiFile } from './gemini/gemini.ts';
import { readProjectHubFile } from './projecthub/projecthub.ts';
import { vizierReader } from './vizier/vizier.ts';

/** The readers' folders, each holding its format's fixtures (`<format>/fixtures/`). */
const sources = fileURLToPath(new URL('.', import.meta.url));

let home: string;
/** A file outside every session's folder. */
let outside: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sv-companions-'));
  mkdirSync(join(home, 'elsewhere'));
  outside = join(home, 'elsewhere', 'private.txt');
  writeFileSync(outside, '/home/victim/secret-project\n');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('Gemini .project_root', () => {
  it('is not read or listed when it is a symlink to a file outside the project folder', async () => {
    const slug = join(home, '.gemini/tmp/harbor-api');
    cpSync(join(sources, 'gemini/fixtures/.gemini/tmp/harbor-api'), slug, { recursive: true });
    symlinkSync(outside, join(slug, '.project_root'));
    const chat = join(slug, 'chats/session-2026-02-20T10-15-7f3a9c21.jsonl');
    const s = await readGeminiFile(chat);
    expect(s.sourceFiles.map((f) => f.path)).toEqual([chat]);
    expect(s.project.path).not.toBe('/home/victim/secret-project');
  });
});

describe('Vizier artifacts', () => {
  it('one reached through a symlink that leads outside is refused, even when repo.root claims the whole disk', async () => {
    const dir = join(home, 'repo', '.vizier', 'sessions', 's1');
    mkdirSync(dir, { recursive: true });
    const link = join(dir, 'run.log');
    symlinkSync(outside, link);
    const file = join(dir, 'session.json');
    writeFileSync(file, JSON.stringify({ id: 's1', repo: { root: '/' }, chat: [{ role: 'user', content: 'hi' }], artifacts: [link, outside, 'run.log'] }));
    const s = await vizierReader.read(file);
    expect(s.sourceFiles.map((f) => f.path)).toEqual([file]);
    expect(s.artifacts.map((a) => a.resolvedPath)).toEqual([null, null, null]);
    expect(s.artifacts.map((a) => a.refused !== undefined)).toEqual([true, true, true]);
    expect(s.warnings.map((w) => w.code)).toContain('artifact_outside');
  });
});

describe('Claude Code sub-agent meta', () => {
  it('is not read or listed when it is a symlink to a file outside the sub-agent folder', async () => {
    const main = '9f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
    const project = join(home, '.claude/projects/-home-dev-proj-ledger');
    cpSync(join(sources, 'claude-code/fixtures/projects/-home-dev-proj-ledger'), project, { recursive: true });
    const meta = join(project, main, 'subagents/agent-b7c8d9e0f1a2b3c4.meta.json');
    rmSync(meta);
    writeFileSync(outside, JSON.stringify({ agentType: 'Leaked', description: 'read from outside' }));
    symlinkSync(outside, meta);
    const s = await readClaudeCodeFile(join(project, main, 'subagents/agent-b7c8d9e0f1a2b3c4.jsonl'));
    expect(s.sourceFiles.map((f) => f.role)).toEqual(['primary']);
    expect(s.title).not.toBe('read from outside');
  });
});

describe('ProjectHub transcript and index', () => {
  it('are not read or listed when .projecthub is a symlink to a folder outside the vault', async () => {
    const vault = join(home, 'tide-tables/vault');
    cpSync(join(sources, 'projecthub/fixtures/tide-tables/vault'), vault, { recursive: true });
    const moved = join(home, 'elsewhere', 'hub');
    cpSync(join(vault, '.projecthub'), moved, { recursive: true });
    rmSync(join(vault, '.projecthub'), { recursive: true });
    symlinkSync(moved, join(vault, '.projecthub'));
    const md = join(vault, 'sessions/2026-03-04_4f6a8b2c-1d3e-4a5b-9c7d-2e4f6a8b0c1d.md');
    const s = await readProjectHubFile(md);
    expect(s.sourceFiles.map((f) => f.path)).toEqual([md]);
  });
});
