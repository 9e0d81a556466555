// Terminal-safe text: escape sequences (with their payloads), controls and bidi overrides go; words, newlines where asked, and JSON values stay.
import { describe, expect, it } from 'vitest';
import { sanitizeDeep, sanitizeForTerminal, sanitizeLines, terminalJson, TerminalJsonArray, writeTerminalJsonArray } from './terminal-text.ts';
import { formatFindings, formatImport } from './bundle-commands.ts';
import type { ImportReport } from '../bundle/import-bundle.ts';

// eslint-disable-next-line no-control-regex -- finding control characters is what this does
const TERMINAL_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('sanitizeForTerminal', () => {
  it('drops a window title (OSC 0, ended by BEL or ST) with its text', () => {
    expect(sanitizeForTerminal('a\x1b]0;pwned\x07b')).toBe('ab');
    expect(sanitizeForTerminal('a\x1b]2;pwned\x1b\\b')).toBe('ab');
  });

  it('drops screen clears, colours and cursor moves, 7-bit and 8-bit', () => {
    expect(sanitizeForTerminal('\x1b[2J\x1b[H\x1b[1;31mred\x1b[0m \x9b2Jplain \x1bc')).toBe('red plain ');
  });

  it("keeps an OSC 8 link's text but not its hidden target", () => {
    expect(sanitizeForTerminal('see \x1b]8;;https://evil.example/\x1b\\the docs\x1b]8;;\x1b\\ now')).toBe('see the docs now');
  });

  it('drops DCS and APC strings, bidi overrides and isolates, bell, backspace and other controls', () => {
    expect(sanitizeForTerminal('a\x1bPq#0;2;0;0;0\x1b\\b\x1b_hidden\x1b\\c')).toBe('abc');
    expect(sanitizeForTerminal('invoice\u202egpj.exe\u202c \u2066x\u2069')).toBe('invoicegpj.exe x');
    expect(sanitizeForTerminal('a\x07b\x08c\x00d\x7fe\x85f')).toBe('abcde f');
  });

  it('makes a field one line: line breaks, carriage returns and tabs become spaces', () => {
    expect(sanitizeForTerminal('one\ntwo\rthree\tfour\u2028five')).toBe('one two three four five');
  });

  it("shows an unterminated sequence's text rather than losing it", () => {
    const shown = sanitizeForTerminal('title \x1b]0;never ended');
    expect(shown).not.toMatch(TERMINAL_CONTROL);
    expect(shown).toContain('never ended');
  });

  it('leaves ordinary text, emoji and other scripts alone', () => {
    const text = 'Fix the café build — 修复 ✓ 🚀 שלום';
    expect(sanitizeForTerminal(text)).toBe(text);
  });
});

describe('sanitizeLines', () => {
  it('keeps the lines the CLI formatted but no carriage return that could overwrite one', () => {
    expect(sanitizeLines('first\x1b[2J\n\tsecond\r\nfake\roverwrite')).toBe('first\n\tsecond\nfake\noverwrite');
  });
});

describe('sanitizeDeep', () => {
  it('cleans every string of a value, keys included, and keeps numbers, booleans and null', () => {
    expect(sanitizeDeep({ 'k\x1b[2J': ['a\x1b]0;t\x07b', 3, null, true], n: { s: 'x\ny' } })).toEqual({ k: ['ab', 3, null, true], n: { s: 'x y' } });
  });
});

describe('terminalJson', () => {
  it('escapes everything a terminal acts on and parses back to the same value', () => {
    const value = { title: 'a\x1b]0;pwned\x07\x9b31m\u202ex\u2028y\x7f' };
    const json = terminalJson(value);
    expect(json).not.toMatch(TERMINAL_CONTROL);
    expect(json).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
    expect(terminalJson(value, 0)).not.toContain('\n');
  });
});

describe('writeTerminalJsonArray', () => {
  const written = (items: unknown[]) => {
    const chunks: string[] = [];
    writeTerminalJsonArray(items, (c) => chunks.push(c));
    return chunks;
  };

  it('writes the bytes terminalJson and a newline would, for empty, small and nested lists', () => {
    const lists: unknown[][] = [[], [1], [{ a: [1, { b: null }], c: 'x' }, 'y', null, [], {}], [undefined, { u: undefined, d: 1.5 }]];
    for (const items of lists) expect(written(items).join('')).toBe(`${terminalJson(items)}\n`);
  });

  it('cuts a long list into chunks of a few thousand characters, each escaped as terminalJson escapes', () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ key: `k${i}`, title: `t\u202e${i}\x9b\u2028`, tags: ['a', 'b'], cost: i / 7 }));
    const chunks = written(items);
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(20_000);
    for (const c of chunks) expect(c).not.toMatch(TERMINAL_CONTROL);
    expect(chunks.join('')).toBe(`${terminalJson(items)}\n`);
  });

  it('writes a list that arrives in parts, empty parts among them, as the whole list', () => {
    const chunks: string[] = [];
    const array = new TerminalJsonArray((c) => chunks.push(c));
    for (const part of [[{ a: 1 }], [], ['b', { c: [2] }], []]) array.add(part);
    array.end();
    expect(chunks.join('')).toBe(`${terminalJson([{ a: 1 }, 'b', { c: [2] }])}\n`);
    const none: string[] = [];
    const empty = new TerminalJsonArray((c) => none.push(c));
    empty.add([]);
    empty.end();
    expect(none.join('')).toBe('[]\n');
  });
});

describe('bundle output', () => {
  it('prints findings from a bundle without the escape sequences in their file names and previews', () => {
    const text = formatFindings([
      {
        id: 'f1',
        rule: 'aws\x1b[2J',
        file: 'sessions/x/\x1b]0;pwned\x07s.jsonl',
        line: 3,
        preview: 'key=AKIA**** \x1b]8;;https://evil.example/\x1b\\x\x1b]8;;\x1b\\\nnext',
        redacted: true,
      },
    ]);
    expect(text).not.toMatch(TERMINAL_CONTROL);
    expect(text).not.toContain('pwned');
    expect(text).not.toContain('evil.example');
    expect(text).toContain('sessions/x/s.jsonl:3');
    expect(text.split('\n')).toHaveLength(3); // the heading, then two lines per finding: the preview's newline is not one
  });

  it("prints an import report without the escape sequences in the bundle's keys, titles and reasons", () => {
    const report: ImportReport = {
      imported: [{ key: 'vizier:a\x1b[2J', title: 'T\x1b]0;pwned\x07itle', dir: '/v/a', copyOf: 'vizier:\u202eb' }],
      skipped: [{ key: 'vizier:c', title: 'x\x9b2Jy', reason: 'already\rthere' }],
      files: 2,
      redaction: { enabled: true, rules: [], findings: 1, redacted: 1, kept: [] },
      appVersion: '1',
      createdAt: '2026-01-01T00:00:00Z',
    };
    const text = formatImport(report);
    expect(text).not.toMatch(TERMINAL_CONTROL);
    expect(text).not.toContain('pwned');
    expect(text).toContain('vizier:a  Title  (a copy of vizier:b)');
    expect(text).toContain('vizier:c  xy: already there');
  });
});
