// A kept or exported aider run carries only its own lines, and reads back from them as the same session.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeRows, parseRowsDocument, renderRowsDocument } from '../../catalogue/rows-document.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { aiderRunRows, listAiderRuns, readAiderRun } from './aider.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sv-aider-rows-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HISTORY = [
  '# aider chat started at 2026-03-01 10:00:00',
  '#### first secret question',
  'answer one',
  '',
  '# aider chat started at 2026-03-01 11:00:00',
  '',
  '#### second question',
  '',
  'answer two',
  '',
  '> Tokens: 900 sent, 40 received. Cost: $0.0030 message, $0.0030 session.',
  '',
].join('\n');

describe('aider run rows', () => {
  it("holds only the run's own lines, and reads back into the same session from a rebuilt store", async () => {
    mkdirSync(join(dir, 'repo'));
    const path = join(dir, 'repo', '.aider.chat.history.md');
    writeFileSync(path, HISTORY);
    const [, second] = await listAiderRuns(path);
    const live = valid(await readAiderRun(path, second!.id, Date.parse('2027-01-01T00:00:00Z')));
    const rows = await aiderRunRows(path, second!.id);
    expect(Object.values(rows.lines!.rows).map((r) => r.text)).toEqual([
      '# aider chat started at 2026-03-01 11:00:00',
      '',
      '#### second question',
      '',
      'answer two',
      '',
      '> Tokens: 900 sent, 40 received. Cost: $0.0030 message, $0.0030 session.',
      '',
    ]);
    // A message's raw record is its line among the run's rows.
    expect(live.messages.map((m) => m.origin?.pointer)).toEqual(['/rows/lines/7', '/rows/lines/9', '/rows/lines/11']);
    expect(rows.lines!.rows['9']).toEqual({ line: 9, text: 'answer two' });

    const doc = parseRowsDocument(renderRowsDocument('aider', path, second!.id, rows));
    mkdirSync(join(dir, 'rebuilt'));
    const rebuilt = join(dir, 'rebuilt', '.aider.chat.history.md');
    materializeRows(doc, rebuilt);
    const back = valid(await readAiderRun(rebuilt, second!.id, Date.parse('2027-01-01T00:00:00Z')));
    expect(back.messages).toEqual(live.messages);
    expect([back.title, back.createdAt, back.updatedAt, back.cost, back.extra]).toEqual([live.title, live.createdAt, live.updatedAt, live.cost, live.extra]);
    expect(JSON.stringify(back)).not.toContain('secret');
  });
});
