// A row dragged out names a safe file and points Chromium at the bundle download.
import { describe, expect, it } from 'vitest';
import { summary } from '../../test-fixtures.ts';
import { dragFileName, fillDragOut } from './drag-out.ts';

describe('dragging a row out', () => {
  it('names the file after the title, without characters DownloadURL or file systems refuse', () => {
    expect(dragFileName({ title: 'Fix: the "date" bug / tz', id: 'x' })).toBe('Fix the date bug tz.zip');
    expect(dragFileName({ title: '', id: 's-1' })).toBe('s-1.zip');
    expect(dragFileName({ title: '::', id: '' })).toBe('session.zip');
  });

  it('sets the DownloadURL Chromium saves from, and the key as text', () => {
    const set = new Map<string, string>();
    const data = { setData: (type: string, value: string) => void set.set(type, value), effectAllowed: 'all' as DataTransfer['effectAllowed'] };
    fillDragOut(data, summary({ key: 'codex:abc', title: 'Refactor parser' }), 'http://127.0.0.1:4000/download/bundle?key=codex%3Aabc&token=t');
    expect(set.get('DownloadURL')).toBe('application/zip:Refactor parser.zip:http://127.0.0.1:4000/download/bundle?key=codex%3Aabc&token=t');
    expect(set.get('text/plain')).toBe('codex:abc');
    expect(data.effectAllowed).toBe('copy');
  });
});
