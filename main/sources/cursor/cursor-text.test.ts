// Cursor's older plain-text transcripts (`<id>.txt`): turns, thinking, calls with their arguments and results paired, claimed in both layouts, left to a `.jsonl` beside them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walkFiles } from '../../catalogue/walk.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { cursorReader, readCursorFile } from './cursor.ts';
import { cursorTextRecords } from './cursor-text.ts';

const tmp = mkdtempSync(join(tmpdir(), 'cursor-text-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The block shapes of kenn-io/agentsview's cursor_test.go (TestExtractAssistantContent and the ApplyPatch cases); the
// transcript is written for this test.
const transcript = [
  'user:',
  '<user_query>',
  'List the Go files and fix the build',
  '</user_query>',
  '',
  'assistant:',
  '[Thinking]',
  '  let me look first...',
  '  then build.',
  "First I'll check the files.",
  '[Tool call] Shell',
  '  command=ls',
  '  cwd=/work/app',
  '[Tool result]',
  '  main.go',
  '  util.go',
  'The files look good.',
  '[Tool call] ApplyPatch',
  '  @@ -1,1 +1,1 @@',
  '  -old',
  '  +new',
  '[Tool call] ReadFile',
  '  {"path":"main.go"}',
  '[Tool result]',
  '  package main',
  'Build fixed.',
  'user:',
  'thanks',
].join('\n');

describe('a plain-text Cursor transcript', () => {
  it('reads each turn, the thinking, prose between blocks, calls with their arguments, and results paired with their calls by order', async () => {
    const dir = join(tmp, '.cursor', 'projects', 'work-app', 'agent-transcripts');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, '5f1c2e3a-0000-4000-8000-000000000001.txt');
    writeFileSync(path, transcript);
    expect(cursorReader.claims(path)).toBe(true);
    const s = valid(await readCursorFile(path));
    expect([s.key, s.title]).toEqual(['cursor:5f1c2e3a-0000-4000-8000-000000000001', 'List the Go files and fix the build']);
    expect(s.messages.map((m) => [m.role, m.origin?.line, m.parts])).toEqual([
      ['user', 1, [{ type: 'text', text: 'List the Go files and fix the build' }]],
      [
        'assistant',
        7,
        [
          { type: 'thinking', text: 'let me look first...\nthen build.', redacted: false },
          { type: 'text', text: "First I'll check the files." },
          { type: 'tool_call', callId: 'call-11', name: 'Shell', input: { command: 'ls', cwd: '/work/app' } },
        ],
      ],
      ['tool', 14, [{ type: 'tool_result', callId: 'call-11', output: 'main.go\nutil.go', isError: null }]],
      [
        'assistant',
        17,
        [
          { type: 'text', text: 'The files look good.' },
          { type: 'tool_call', callId: 'call-18', name: 'ApplyPatch', input: { patch: '@@ -1,1 +1,1 @@\n-old\n+new' } },
          { type: 'tool_call', callId: 'call-22', name: 'ReadFile', input: { path: 'main.go' } },
        ],
      ],
      // A result belongs to the latest call without one: ApplyPatch printed none.
      ['tool', 24, [{ type: 'tool_result', callId: 'call-22', output: 'package main', isError: null }]],
      ['assistant', 26, [{ type: 'text', text: 'Build fixed.' }]],
      ['user', 27, [{ type: 'text', text: 'thanks' }]],
    ]);
    expect(s.warnings).toEqual([]);
  });

  it('keeps arguments that are neither JSON nor key=value lines as written, and reads nothing before the first role line', () => {
    const records = cursorTextRecords(['preamble the tool printed', 'assistant:', '[Tool call] Grep', '  find the TODOs', '[Thinking]', 'Done.'].join('\n'));
    expect(records).toEqual([
      {
        line: 3,
        value: {
          role: 'assistant',
          message: {
            content: [
              { type: 'tool_use', id: 'call-3', name: 'Grep', input: 'find the TODOs' },
              { type: 'text', text: 'Done.' },
            ],
          },
        },
      },
    ]);
  });

  it('is claimed flat and in its own folder, and left to a .jsonl of the same session beside it', async () => {
    const dir = join(tmp, 'layout', '.cursor', 'projects', 'p', 'agent-transcripts');
    const files = {
      'aaa.txt': 'user:\nhi',
      'ccc.txt': 'user:\nhi',
      'ccc.jsonl': '{"role":"user","message":{"content":"hi"}}',
      'bbb/bbb.txt': 'user:\nhi',
      'ddd/ddd.txt': 'user:\nhi',
      'ddd/ddd.jsonl': '{"role":"user","message":{"content":"hi"}}',
      'ddd/notes.txt': 'notes',
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const found: string[] = [];
    for await (const path of walkFiles(join(tmp, 'layout'), (p) => cursorReader.claims(p))) found.push(path.slice(dir.length + 1));
    expect(found.sort()).toEqual(['aaa.txt', 'bbb/bbb.txt', 'ccc.jsonl', 'ddd/ddd.jsonl']);
  });
});
