// A contained session's rows as a document: rendered faithfully (BLOBs and big integers too), rebuilt into tables without running any SQL it holds, refused when it is not one.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { testTempDir } from '../test-support/temp-dir.ts';
import { UnreadableError } from '../sources/types.ts';
import { isRowsDocumentPath, materializeRows, parseRowsDocument, renderRowsDocument, rowsDocumentPath } from './rows-document.ts';

const rows = {
  session: { columns: ['id', 'title'], rows: { ses_1: { id: 'ses_1', title: 'Fix it' } } },
  message: {
    columns: ['id', 'session_id', 'data', 'blob', 'big'],
    rows: { msg_1: { id: 'msg_1', session_id: 'ses_1', data: '{"role":"user"}', blob: new Uint8Array([0, 1, 255]), big: 9007199254740993n } },
  },
};

describe('rows documents', () => {
  it('render every cell and read back into tables the store’s reader can query', () => {
    const text = renderRowsDocument('opencode', '/s/opencode.db', 'ses_1', rows);
    const doc = parseRowsDocument(text);
    expect(doc.rows.message?.msg_1).toEqual({ id: 'msg_1', session_id: 'ses_1', data: '{"role":"user"}', blob: { $base64: 'AAH/' }, big: '9007199254740993' });
    const path = join(testTempDir('sv-rows-'), 'opencode.db');
    materializeRows(doc, path);
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      expect(db.prepare('SELECT title FROM session WHERE id = ?').get('ses_1')).toEqual({ title: 'Fix it' });
      const row = db.prepare('SELECT data, blob FROM message').get() as { data: string; blob: Uint8Array };
      expect(row.data).toBe('{"role":"user"}');
      expect([...row.blob]).toEqual([0, 1, 255]);
    } finally {
      db.close();
    }
  });

  it('quote every name from a document, so a table named like SQL is only a name', () => {
    const text = renderRowsDocument('opencode', '/s/opencode.db', 'x', { 'a"; DROP TABLE b; --': { columns: ['c"d'], rows: { '1': { 'c"d': 'v' } } } });
    const path = join(testTempDir('sv-rows-'), 'x.db');
    materializeRows(parseRowsDocument(text), path);
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'a"; DROP TABLE b; --' }]);
    } finally {
      db.close();
    }
  });

  it('refuse what is not a rows document, saying what is wrong', () => {
    for (const [text, reason] of [
      ['{', /not valid JSON/],
      ['{"format":"other"}', /format/],
      [
        JSON.stringify({
          format: 'session-vault-store-rows',
          formatVersion: 2,
          source: { format: 'opencode', store: '/s', session: 'x' },
          columns: {},
          rows: {},
        }),
        /formatVersion/,
      ],
    ] as const) {
      expect(() => parseRowsDocument(text)).toThrow(UnreadableError);
      expect(() => parseRowsDocument(text)).toThrow(reason);
    }
  });

  it('go by a name beside their store that is safe for any id', () => {
    expect(rowsDocumentPath('/s/opencode.db', 'ses_1')).toBe('/s/opencode.db.ses_1.session-rows.json');
    const odd = rowsDocumentPath('/s/opencode.db', '../../etc/passwd');
    expect(odd.startsWith('/s/opencode.db.')).toBe(true);
    expect(odd.slice('/s/'.length)).not.toContain('/');
    expect(isRowsDocumentPath(odd)).toBe(true);
    expect(isRowsDocumentPath('/s/.session-rows.json')).toBe(false);
  });
});
