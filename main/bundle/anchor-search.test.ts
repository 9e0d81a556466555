// The byte-level anchor search finds exactly the places the anchor pattern matches in the decoded text, for ASCII, UTF-8 and Latin-1 windows.
import { describe, expect, it } from 'vitest';
import { ANCHOR_PATTERNS, anchorHits, charOffsets, maxMatchLength, patternStarts } from './anchor-search.ts';

const ANCHOR_AT = new RegExp(ANCHOR_PATTERNS.join('|'), 'iy');

/** Every place the anchor pattern matches, tried at each character: what anchorHits must return. */
function bruteForce(text: string): number[] {
  const hits: number[] = [];
  for (let i = 0; i < text.length; i++) {
    ANCHOR_AT.lastIndex = i;
    const m = ANCHOR_AT.exec(text);
    if (m) hits.push(i, i + m[0].length);
  }
  return hits;
}

/** anchorHits on `text`'s bytes, as character offsets in `text` (decoded from them as `encoding`). */
function hitsIn(text: string, encoding: 'utf8' | 'latin1' = 'utf8'): number[] {
  const bytes = Buffer.from(text, encoding);
  const hits = anchorHits(bytes);
  const sorted = [...new Set(hits)].sort((a, b) => a - b);
  const chars = new Map(charOffsets(bytes, text, sorted).map((c, i) => [sorted[i], c]));
  return hits.map((h) => chars.get(h) as number);
}

/** One text that matches each anchor. */
const EXAMPLES = [
  'A3T',
  'AKIA',
  'AGPA',
  'AIDA',
  'AROA',
  'AIPA',
  'ANPA',
  'ANVA',
  'ASIA',
  'secretaccess_key',
  'account',
  'PRIVATE KEY',
  'x-oauth-basic',
  '://user-1:',
  '_authToken',
  'npm_',
  'xox',
  'xapp',
  'hooks.slack.com',
  'mongodb',
  'mysql',
  'postgres',
  'sk-',
  'k_live',
  'k_test',
  'gsk_',
  'hf_',
  'lin_api_',
  'ntn_',
  'SG.',
  'shpat_',
  'ghr_',
  'github_pat_',
  'glpat-',
  'glc_',
  'glsa_',
  'ops_',
  'hvb.',
  'vcq_',
  'dapi',
  'dckr_pat_',
  'figd_',
  'cfabc_',
  'tskey-',
  'eyJ',
  'AIza',
  'PASSWORD=',
  'SECRET_KEY =',
  'token\t=',
  'API_KEY=',
  '://:',
];

/** A deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  ...EXAMPLES,
  ...EXAMPLES.map((e) => e.toLowerCase()),
  ...EXAMPLES.map((e) => e.toUpperCase()),
  ' ',
  '\n',
  'a',
  'K',
  '_',
  '-',
  ':',
  '/',
  'é',
  '✓',
  '😀',
  'ſk-',
  'Ａ',
  '\u0131',
  'ordinary words ',
];

describe('anchorHits', () => {
  it('every example matches its own anchor, and each anchor has an example', () => {
    expect(EXAMPLES).toHaveLength(ANCHOR_PATTERNS.length);
    ANCHOR_PATTERNS.forEach((pattern, i) => expect(new RegExp(`^(?:${pattern})$`, 'i').test(EXAMPLES[i] as string), pattern).toBe(true));
  });

  it('finds every example in any case, after multi-byte characters, at the right character offset', () => {
    for (const example of EXAMPLES) {
      for (const spelled of [example, example.toLowerCase(), example.toUpperCase()]) {
        const text = `né ✓ 😀 ${spelled} done`;
        const hits = hitsIn(text);
        expect(hits[0], spelled).toBe(text.indexOf(spelled));
        expect(hits).toEqual(bruteForce(text));
      }
    }
  });

  it('returns exactly the places the pattern matches on random mixes of anchors, words and non-ASCII text (UTF-8 and Latin-1)', () => {
    const next = random(20261125);
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: 5 + Math.floor(next() * 60) }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
      expect(hitsIn(text), text).toEqual(bruteForce(text));
      // A window that is not valid UTF-8 is decoded as Latin-1, a character per byte.
      const latin1 = Buffer.from(text, 'utf8').toString('latin1');
      expect(hitsIn(latin1, 'latin1'), text).toEqual(bruteForce(latin1));
    }
  });

  it('finds an anchor cut by the 64 KiB pieces the bytes are searched in, whatever comes before it', () => {
    for (const before of ['x', 'é', '😀']) {
      for (let shift = -4; shift <= 4; shift++) {
        const head = before.repeat(Math.ceil((65_536 + shift) / Buffer.byteLength(before)));
        const text = `${head}sk-\n${head}${head}AKIA`;
        expect(hitsIn(text), `${before} ${shift}`).toEqual(bruteForce(text));
        expect(bruteForce(text)).toHaveLength(4);
      }
    }
  });

  it('finds nothing in text without anchors, and copes with empty and tiny windows', () => {
    for (const text of ['', 'a', 'sk', 'nothing to see here, just build output ✓\n'.repeat(50)]) expect(anchorHits(Buffer.from(text))).toEqual([]);
  });

  it('reads as far as the longest match of an anchor, and no further', () => {
    expect(maxMatchLength(':\\/\\/[-\\w]{1,256}:')).toBe(260);
    expect(maxMatchLength('secret_?access_?key')).toBe(17);
    expect(maxMatchLength('gh[pousr]_')).toBe(4);
    expect(() => maxMatchLength('a[bc]+')).toThrow(/no bound/);
    const user = 'u'.repeat(256);
    const text = `clone https://${user}:pw@host and https://${user}x:pw@host`;
    expect(hitsIn(text)).toEqual(bruteForce(text));
    expect(hitsIn(text)).toHaveLength(2);
  });

  it('builds its table only from patterns whose first three characters are certain', () => {
    expect(patternStarts('gh[pou]_')).toEqual(['ghp', 'gho', 'ghu']);
    expect(patternStarts('cf[a-c]{1,3}_')).toEqual(['cfa', 'cfb', 'cfc']);
    expect(patternStarts(':\\/\\/[-\\w]{1,256}:')).toEqual(['://']);
    expect(() => patternStarts('ab?c')).toThrow(/optional/);
    expect(() => patternStarts('a\\wc')).toThrow(/class escape/);
    expect(() => patternStarts('a[^b]c')).toThrow(/negated/);
    expect(() => patternStarts('a(b|c)d')).toThrow(/'\('/);
    expect(() => patternStarts('ab')).toThrow(/not three certain/);
  });
});
