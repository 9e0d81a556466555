// Kilo Code's pre-2026 VS Code extension: its Cline-style task folders are read under the Kilo format by the Cline reader.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { valid } from '../../test-support/reader-checks.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { findReader } from '../registry.ts';
import { kiloReader } from './kilo.ts';

const TASK = '7d1f6c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f';

describe('Kilo Code legacy task folders', () => {
  it('are claimed and read as Kilo sessions: the history, the workspace from environment details, tokens and cost from api_req_started', async () => {
    const dir = join(testTempDir('sv-kilo-legacy-'), '.config', 'Code', 'User', 'globalStorage', 'kilocode.kilo-code', 'tasks', TASK);
    mkdirSync(dir, { recursive: true });
    const history = join(dir, 'api_conversation_history.json');
    writeFileSync(
      history,
      JSON.stringify([
        {
          role: 'user',
          content: [
            { type: 'text', text: '<task>\nReview the parser\n</task>' },
            { type: 'text', text: '<environment_details>\n# Current Workspace Directory (/Users/dev/code/gadget) Files\nsrc/main.go\n</environment_details>' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Looking at it.' }] },
      ]),
    );
    writeFileSync(
      join(dir, 'ui_messages.json'),
      JSON.stringify([
        { ts: 1700000000000, type: 'say', say: 'text', text: 'Review the parser' },
        {
          ts: 1700000000500,
          type: 'say',
          say: 'api_req_started',
          text: JSON.stringify({ tokensIn: 1000, tokensOut: 50, cacheReads: 200, cost: 0.012, inferenceProvider: 'Z.AI' }),
        },
        { ts: 1700000001500, type: 'say', say: 'api_req_started', text: JSON.stringify({ tokensIn: 2500, tokensOut: 120, cacheReads: 400, cost: 0.034 }) },
      ]),
    );
    writeFileSync(join(dir, 'task_metadata.json'), JSON.stringify({ files_in_context: [{ path: 'src/main.go' }] }));
    expect(findReader(history)?.format).toBe('kilo');
    expect(kiloReader.companion?.(join(dir, 'task_metadata.json'))).toBe(true);
    const s = valid(await kiloReader.read(history));
    expect(s).toMatchObject({ key: `kilo:${TASK}`, format: 'kilo', title: 'Review the parser', project: { path: '/Users/dev/code/gadget', name: 'gadget' } });
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(s.usage).toEqual({ input: 3500, output: 170, cacheRead: 600, cacheWrite: 0, reasoning: 0 });
    expect(s.cost?.usd).toBeCloseTo(0.046);
    expect(s.cost?.estimated).toBe(false);
    expect(s.model?.provider).toBe('Z.AI');
    expect(kiloReader.resumeCommand({ id: TASK, isSubAgent: false })).toBeNull();
    expect(kiloReader.resumeCommand({ id: 'ses_abc', isSubAgent: false })).toBe('kilo --session ses_abc');
  });

  it('adds the extension folders of every VS Code build to the Kilo CLI data folder', () => {
    const roots = kiloReader.defaultRoots({}, '/h');
    expect(roots).toContain('/h/.config/Code/User/globalStorage/kilocode.kilo-code/tasks');
    expect(roots).toContain('/h/Library/Application Support/Windsurf/User/globalStorage/kilocode.kilo-code/tasks');
    expect(roots.some((r) => r.includes('.local/share/kilo'))).toBe(true);
  });
});
