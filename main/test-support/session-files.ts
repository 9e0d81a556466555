// Small, valid JidoCode and Vizier session documents that tests write into temporary roots.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export function jidoSession(id: string, name: string, updated = '2026-01-02T10:00:00.000000Z') {
  return JSON.stringify({
    version: 1,
    id,
    name,
    project_path: `/home/dev/${name}`,
    config: { provider: 'anthropic', model: 'claude-sonnet-4-5', temperature: 0.2 },
    created_at: '2026-01-02T09:00:00.000000Z',
    updated_at: updated,
    closed_at: updated,
    conversation: [
      { id: 'a1', role: 'user', content: `Fix the ${name} build`, timestamp: '2026-01-02T09:00:01.000000Z' },
      { id: 'a2', role: 'assistant', content: 'Done.', timestamp: '2026-01-02T09:00:09.000000Z' },
    ],
    todos: [{ content: 'Fix build', status: 'completed', active_form: 'Fixing build' }],
  });
}

export function vizierSession(id: string) {
  return JSON.stringify({
    id,
    created_at: '2026-01-03T09:00:00.000-06:00',
    updated_at: '2026-01-03T09:30:00.000-06:00',
    tool_version: '0.1.0',
    repo: { root: '/home/dev/orbit', current_branch: 'fix/tiebreak', head_sha: 'abc123' },
    config_effective: { 'model.name': { value: 'gpt-5', provenance: 'CLI' } },
    model: { provider: 'openai', name: 'gpt-5', temperature: 0.2, thinking_level: 'medium' },
    chat: [
      { role: 'user', content: 'Make merge deterministic', ts: '2026-01-03T09:00:01.000-06:00' },
      { role: 'assistant', content: 'Patched.', ts: '2026-01-03T09:10:00.000-06:00' },
    ],
    operations: [],
    artifacts: [],
    outcome: { status: 'accepted', summary: 'Tie-break fixed', commit_sha: 'abc123' },
  });
}

/** A Jido Code session file in `dir`'s own layout (`.jido_code/sessions/<id>.json`), its first prompt `text`; its path. */
export async function writeJidoFile(dir: string, id: string, text: string): Promise<string> {
  const folder = join(dir, '.jido_code', 'sessions');
  await mkdir(folder, { recursive: true });
  const file = JSON.parse(jidoSession(id, `project-${id}`)) as { conversation: Array<{ content: string }> };
  (file.conversation[0] as { content: string }).content = text;
  const path = join(folder, `${id}.json`);
  await writeFile(path, JSON.stringify(file, null, 2));
  return path;
}
