// Word-level diff of two texts (Myers over word/space/punctuation tokens) and a cheap word-bag similarity.
import type { WordSegment } from './comparison.ts';
import { commonPairs } from './myers.ts';

/** A word or one punctuation mark, with the whitespace before it (which is kept but never matched on). */
const TOKEN = /(\s*)([\p{L}\p{N}_]+|[^\p{L}\p{N}_\s])/gu;
const WORD = /[\p{L}\p{N}_]+/gu;
const SIGNIFICANT = /[\p{L}\p{N}_]/u;
/** Search steps one diff may take; past it the rest counts as rewritten rather than edited (about a millisecond). */
const BUDGET = 300_000;
/** Texts sharing fewer words than this are shown as rewritten without searching for a finer diff. */
const MIN_SIMILARITY = 0.3;

interface Tokens {
  words: string[];
  /** Whitespace before each word. */
  leads: string[];
  /** Whitespace after the last word. */
  tail: string;
}

export function tokenize(text: string): Tokens {
  const words: string[] = [];
  const leads: string[] = [];
  let end = 0;
  for (const m of text.matchAll(TOKEN)) {
    leads.push(m[1] as string);
    words.push(m[2] as string);
    end = (m.index ?? 0) + m[0].length;
  }
  return { words, leads, tail: text.slice(end) };
}

/** Words as ids in a dictionary shared by everything being compared, sorted so two bags merge in linear time. */
export function wordBag(text: string, dictionary: Map<string, number>): Int32Array {
  const words = text.toLowerCase().match(WORD) ?? [];
  const bag = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    let id = dictionary.get(w);
    if (id === undefined) {
      id = dictionary.size;
      dictionary.set(w, id);
    }
    bag[i] = id;
  }
  return bag.sort();
}

/** Dice coefficient of two sorted word bags: 1 for the same words, 0 for none in common; two empty bags are alike. */
export function bagSimilarity(x: Int32Array, y: Int32Array): number {
  if (x.length === 0 && y.length === 0) return 1;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < x.length && j < y.length) {
    const a = x[i] as number;
    const b = y[j] as number;
    if (a === b) {
      shared++;
      i++;
      j++;
    } else if (a < b) i++;
    else j++;
  }
  return (2 * shared) / (x.length + y.length);
}

export function textSimilarity(a: string, b: string): number {
  const dictionary = new Map<string, number>();
  return bagSimilarity(wordBag(a, dictionary), wordBag(b, dictionary));
}

function push(out: WordSegment[], op: WordSegment['op'], text: string): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.op === op) last.text += text;
  else out.push({ op, text });
}

/**
 * Spaces and punctuation left equal between two changes are folded into the change, so
 * "the quick fox" → "a slow dog" reads as one replacement rather than three interleaved ones;
 * whitespace both sides of a change start with stays outside it.
 */
function tidy(raw: WordSegment[]): WordSegment[] {
  const out: WordSegment[] = [];
  let del = '';
  let ins = '';
  let held = '';
  const flush = () => {
    const lead = /^\s*/.exec(del)?.[0] ?? '';
    const shared = del && ins && ins.startsWith(lead) ? lead : '';
    push(out, 'eq', shared);
    push(out, 'del', del.slice(shared.length));
    push(out, 'ins', ins.slice(shared.length));
    del = '';
    ins = '';
  };
  for (const seg of raw) {
    if (seg.op === 'eq') {
      if ((del || ins) && !SIGNIFICANT.test(seg.text)) {
        held += seg.text;
        continue;
      }
      flush();
      push(out, 'eq', held + seg.text);
      held = '';
      continue;
    }
    if (held) {
      del += held;
      ins += held;
      held = '';
    }
    if (seg.op === 'del') del += seg.text;
    else ins += seg.text;
  }
  flush();
  push(out, 'eq', held);
  return out;
}

/** Segments that rebuild `a` from eq+del and `b` from eq+ins. */
export function wordDiff(a: string, b: string): WordSegment[] {
  if (a === b) return a ? [{ op: 'eq', text: a }] : [];
  if (!a || !b || textSimilarity(a, b) < MIN_SIMILARITY)
    return tidy([
      { op: 'del', text: a },
      { op: 'ins', text: b },
    ]);
  const ta = tokenize(a);
  const tb = tokenize(b);
  const ids = new Map<string, number>();
  const idOf = (t: string) => {
    let id = ids.get(t);
    if (id === undefined) {
      id = ids.size;
      ids.set(t, id);
    }
    return id;
  };
  const ia = Int32Array.from(ta.words, idOf);
  const ib = Int32Array.from(tb.words, idOf);
  const raw: WordSegment[] = [];
  const run = (op: 'del' | 'ins', t: Tokens, from: number, to: number) => {
    for (let k = from; k < to; k++) push(raw, op, (t.leads[k] as string) + (t.words[k] as string));
  };
  let i = 0;
  let j = 0;
  for (const [pa, pb] of commonPairs(ia, ib, BUDGET)) {
    run('del', ta, i, pa);
    run('ins', tb, j, pb);
    const la = ta.leads[pa] as string;
    const lb = tb.leads[pb] as string;
    if (la === lb) push(raw, 'eq', la + (ta.words[pa] as string));
    else {
      push(raw, 'del', la);
      push(raw, 'ins', lb);
      push(raw, 'eq', ta.words[pa] as string);
    }
    i = pa + 1;
    j = pb + 1;
  }
  run('del', ta, i, ta.words.length);
  run('ins', tb, j, tb.words.length);
  if (ta.tail === tb.tail) push(raw, 'eq', ta.tail);
  else {
    push(raw, 'del', ta.tail);
    push(raw, 'ins', tb.tail);
  }
  return tidy(raw);
}
/** The A side (eq + del) and B side (eq + ins) of a diff, to check or print either text. */
export function sideText(segments: readonly WordSegment[], side: 'a' | 'b'): string {
  const skip = side === 'a' ? 'ins' : 'del';
  return segments
    .filter((s) => s.op !== skip)
    .map((s) => s.text)
    .join('');
}
