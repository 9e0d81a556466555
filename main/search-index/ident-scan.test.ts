// The identifier scan: same tokens as a plain per-character reading, at any alignment, and a collector that dedupes.
import { describe, expect, it } from 'vitest';
import { IdentCollector, scanIdents } from './ident-scan.ts';

/** The bytes in memory that starts 4-byte aligned, as extractPackedIndexText hands them over. */
function aligned(text: string): { bytes: Buffer; words: Int32Array } {
  const encoded = Buffer.from(text, 'utf8');
  const bytes = Buffer.allocUnsafeSlow(encoded.length + 8).fill(0x20);
  encoded.copy(bytes);
  return { bytes, words: new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2) };
}

/** What the scan must find, read the slow way: maximal runs of [A-Za-z0-9_$./:\\-] with inner structure, 5+ bytes. */
function reference(bytes: Buffer, from: number, to: number): string[] {
  const text = bytes.toString('latin1', from, to);
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9_$./:\\-]+/g)) {
    if (m[0].length >= 5 && /^[_$./:\\-]|[_$./:\\-]|[a-z][A-Z]|[A-Za-z][0-9]|[0-9][A-Za-z]/.test(m[0])) out.push(m[0]);
  }
  return out;
}

function scanned(bytes: Buffer, words: Int32Array, from: number, to: number): string[] {
  const out: string[] = [];
  scanIdents(bytes, words, from, to, (start, end) => {
    out.push(bytes.toString('latin1', start, end));
    return true;
  });
  return out;
}

/** Deterministic text mixing plain words (the fast path) with every kind of token boundary and structure. */
function sampleText(seed: number, length: number): string {
  const pieces = [
    'plain',
    'words',
    'here',
    ' ',
    ' ',
    ' ',
    'parseVizierDocument',
    'toolu_01ABCdef',
    '/src/vizier/parse.ts',
    'v2',
    'abc9',
    'x.y',
    'été',
    '«q»',
    '\n',
    'Sentence.',
    'UPPER',
    'a-b-c-d',
    'snake_case_name',
    '9lives',
    'tail/',
    '::',
    '日本',
  ];
  let s = '';
  let x = seed;
  while (s.length < length) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += pieces[x % pieces.length];
  }
  return s;
}

describe('scanIdents', () => {
  it('finds exactly the structured tokens a per-character reading finds, for every start and end alignment', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { bytes, words } = aligned(sampleText(seed, 300));
      const end = Buffer.byteLength(sampleText(seed, 300));
      for (const [from, to] of [
        [0, end],
        [1, end - 1],
        [2, end - 2],
        [3, end - 3],
        [5, 7],
      ] as const) {
        // A range cut inside a token sees only its part, as the reference does.
        expect(scanned(bytes, words, from, to), `seed ${seed} [${from}, ${to})`).toEqual(reference(bytes, from, to));
      }
    }
  });

  it('backs up to the start of an identifier whose first letters sit in plain words', () => {
    const { bytes, words } = aligned('aaaa bbbb ccccdddd eeeeffffggggHump tail');
    expect(scanned(bytes, words, 0, 40)).toEqual(['eeeeffffggggHump']);
  });

  it('stops when the callback says so', () => {
    const { bytes, words } = aligned('one_two three_four five_six');
    const seen: string[] = [];
    scanIdents(bytes, words, 0, 27, (s, e) => {
      seen.push(bytes.toString('latin1', s, e));
      return seen.length < 2;
    });
    expect(seen).toEqual(['one_two', 'three_four']);
  });
});

describe('IdentCollector', () => {
  const collect = (collector: IdentCollector, text: string): string[] => {
    const { bytes, words } = aligned(text);
    collector.reset();
    scanIdents(bytes, words, 0, Buffer.byteLength(text), (s, e) => {
      collector.addToken(bytes, s, e);
      return true;
    });
    return Array.from({ length: collector.count }, (_, n) => bytes.toString('latin1', collector.starts[n], collector.ends[n]));
  };

  it('keeps each identifier once, in the order first seen, trimmed of sentence and folder punctuation', () => {
    const collector = new IdentCollector();
    expect(collect(collector, 'see parseThing. then /tmp/dir/ and parseThing again, -x_flag: ParseThing')).toEqual([
      'parseThing',
      '/tmp/dir',
      'x_flag',
      'ParseThing',
    ]);
    // Written out with one space between: 10 + 1 + 8 + 1 + 6 + 1 + 10.
    expect(collector.bytes).toBe(37);
  });

  it('drops a token that trimming leaves too short or without structure', () => {
    expect(collect(new IdentCollector(), 'abcd. plain... ...Word ab_c.')).toEqual([]);
  });

  it('starts empty after a reset and grows past its first table size without losing any', () => {
    const collector = new IdentCollector();
    collect(collector, 'first_one second_one');
    const many = Array.from({ length: 5000 }, (_, n) => `name_${n}`);
    expect(collect(collector, [...many, ...many].join(' '))).toEqual(many);
  });
});
