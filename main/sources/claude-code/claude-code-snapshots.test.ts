// Claude Code's file-history-snapshot records are counted without being parsed, as Claude Code writes them; any other shape is parsed as before.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { valid } from '../../test-support/reader-checks.ts';
import { testTempDir } from '../../test-support/temp-dir.ts';
import { readClaudeCodeFile } from './claude-code.ts';
import { user } from './claude-code-test-records.ts';

/** A transcript in Claude Code's layout holding these lines (the last one without a newline when `torn`). */
function transcript(lines: string[], torn = false): string {
  const dir = join(testTempDir('sv-cc-snapshots-'), '.claude', 'projects', '-home-dev-app');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, '5e36c2ae-c098-4c54-803a-19eb22b841db.jsonl');
  writeFileSync(path, lines.join('\n') + (torn ? '' : '\n'));
  return path;
}

const backups = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`src/file-${i}.ts`, { backupFileName: `b${i}@v1`, version: 1 }]));
/** As Claude Code writes one: type, messageId, snapshot, isSnapshotUpdate. */
const snapshot = (id: string) =>
  JSON.stringify({ type: 'file-history-snapshot', messageId: id, snapshot: { messageId: id, trackedFileBackups: backups }, isSnapshotUpdate: false });

describe('file-history-snapshot records', () => {
  it('are counted as Claude Code writes them, without a warning, and leave the conversation as it was', async () => {
    const s = valid(
      await readClaudeCodeFile(
        transcript([
          snapshot('m1'),
          JSON.stringify(user('u1', 'Rename the module')),
          snapshot('m2'),
          // Another writer's key order is parsed, and counted the same.
          JSON.stringify({ messageId: 'm3', type: 'file-history-snapshot', snapshot: {}, isSnapshotUpdate: true }),
        ]),
      ),
    );
    expect(s.title).toBe('Rename the module');
    expect(s.messages.map((m) => m.role)).toEqual(['user']);
    expect(s.extra.ignoredRecords).toEqual({ 'file-history-snapshot': 3 });
    expect(s.warnings).toEqual([]);
  });

  it('say a final snapshot line cut mid-write was cut, as for any record', async () => {
    const whole = snapshot('m2');
    const s = valid(
      await readClaudeCodeFile(transcript([snapshot('m1'), JSON.stringify(user('u1', 'Rename the module')), whole.slice(0, whole.length / 2)], true)),
    );
    expect(s.extra.ignoredRecords).toEqual({ 'file-history-snapshot': 1 });
    expect(s.warnings.map((w) => w.code)).toEqual(['torn_line']);
  });
});
