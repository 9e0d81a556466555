// Compares two sessions: prompts anchor a turn alignment, steps align inside matched turns, changed text gets a word diff.
import type { Session } from '../session.ts';
import { alignSequences, type Pair } from './align.ts';
import type { Comparison, ComparedSide, Step, StepAspect, StepRow, TurnRow, WordSegment } from './comparison.ts';
import { fileRows } from './files.ts';
import { headerRows } from './header.ts';
import { normalizeSession, RESULT_CHARS, squash, TEXT_CHARS, type NormalTurn } from './normalize.ts';
import { alignOperations, operationEntries } from './operations.ts';
import { sessionSpan } from './totals.ts';
import { bagSimilarity, wordBag, wordDiff } from './word-diff.ts';
import { heldSum } from '../held-sum.ts';

/** Prompts at least this alike are one turn that changed; below it, one was removed and another added. */
const TURN_THRESHOLD = 0.5;
const STEP_THRESHOLD = 0.4;

/** Ids for signatures and words, shared by both sides so equal strings get equal ids. */
class Ids {
  private readonly ids = new Map<string, number>();
  readonly words = new Map<string, number>();
  of(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(key, id);
    }
    return id;
  }
}

function stepText(step: Step): string {
  if (step.kind === 'text') return step.text;
  if (step.kind === 'event') return step.label;
  return `${step.family} ${step.target ?? step.args}`;
}

function stepSimilarity(x: Step, y: Step, bag: (s: Step) => Int32Array): number {
  if (x.kind !== y.kind) return 0;
  if (x.kind === 'tool' && y.kind === 'tool') {
    if (x.family !== y.family) return 0;
    if (x.target === y.target) return 0.9;
    return 0.5 + 0.4 * bagSimilarity(bag(x), bag(y));
  }
  return bagSimilarity(bag(x), bag(y));
}

function aspectsOf(x: Step, y: Step): { aspects: StepAspect[]; diff: WordSegment[] | null } {
  // Re-wrapped text is the same text.
  if (x.kind === 'text' && y.kind === 'text')
    return squash(x.text) === squash(y.text) ? { aspects: [], diff: null } : { aspects: ['text'], diff: wordDiff(x.text, y.text) };
  if (x.kind === 'event' && y.kind === 'event')
    return x.label === y.label ? { aspects: [], diff: null } : { aspects: ['text'], diff: wordDiff(x.label, y.label) };
  if (x.kind !== 'tool' || y.kind !== 'tool') return { aspects: ['kind'], diff: null };
  const aspects: StepAspect[] = [];
  if (x.family !== y.family) aspects.push('tool');
  // Tools of one family under different names (Bash, shell) take differently shaped arguments: compare what they act on.
  const sameName = x.name === y.name;
  const argsDiffer = sameName ? x.args !== y.args : x.target !== y.target;
  if (argsDiffer) aspects.push('args');
  if (x.status !== y.status) aspects.push('status');
  const diff = argsDiffer ? (sameName ? wordDiff(x.args, y.args) : wordDiff(x.target ?? x.args, y.target ?? y.args)) : null;
  return { aspects, diff };
}

function alignSteps(ta: NormalTurn, tb: NormalTurn, ids: Ids): StepRow[] {
  const bags = new Map<Step, Int32Array>();
  const bag = (s: Step) => {
    let b = bags.get(s);
    if (!b) {
      b = wordBag(stepText(s), ids.words);
      bags.set(s, b);
    }
    return b;
  };
  const sa = ta.turn.steps;
  const sb = tb.turn.steps;
  const keysA = Int32Array.from(ta.stepKeys, (k) => ids.of(k));
  const keysB = Int32Array.from(tb.stepKeys, (k) => ids.of(k));
  const pairs = alignSequences(keysA, keysB, (i, j) => stepSimilarity(sa[i] as Step, sb[j] as Step, bag), STEP_THRESHOLD);
  const rows: StepRow[] = pairs.map((p) => {
    if (p.a === null || p.b === null) return { status: p.status, a: p.a, b: p.b, moved: false, aspects: [], diff: null };
    const { aspects, diff } = aspectsOf(sa[p.a] as Step, sb[p.b] as Step);
    return { status: aspects.length ? 'changed' : 'same', a: p.a, b: p.b, moved: false, aspects, diff };
  });
  // A step removed here and added there with the same signature was reordered, not rewritten.
  const inserted = new Map<number, StepRow[]>();
  for (const r of rows) if (r.status === 'inserted' && r.b !== null) inserted.set(keysB[r.b] as number, [...(inserted.get(keysB[r.b] as number) ?? []), r]);
  for (const r of rows) {
    if (r.status !== 'deleted' || r.a === null) continue;
    const twin = inserted.get(keysA[r.a] as number)?.shift();
    if (twin) {
      r.moved = true;
      twin.moved = true;
    }
  }
  return rows;
}

function turnRow(pair: Pair, A: readonly NormalTurn[], B: readonly NormalTurn[], ids: Ids): TurnRow {
  if (pair.a === null || pair.b === null) return { status: pair.status, a: pair.a, b: pair.b, similarity: 0, promptDiff: null, steps: [] };
  const ta = A[pair.a] as NormalTurn;
  const tb = B[pair.b] as NormalTurn;
  const pa = ta.turn.prompt ?? '';
  const pb = tb.turn.prompt ?? '';
  const promptDiff = ta.promptKey === tb.promptKey ? null : wordDiff(pa, pb);
  const steps = alignSteps(ta, tb, ids);
  const same = promptDiff === null && steps.every((s) => s.status === 'same');
  return { status: same ? 'same' : 'changed', a: pair.a, b: pair.b, similarity: pair.similarity, promptDiff, steps: same ? [] : steps };
}

function side(session: Session, key: string, turns: readonly NormalTurn[]): ComparedSide {
  let tokens = 0;
  let cost = 0;
  const anyCost = turns.some((t) => t.turn.costUsd !== null);
  return {
    key,
    id: session.id,
    format: session.format,
    title: session.title,
    messageCount: session.messages.length,
    turns: turns.map((t) => t.turn),
    operations: operationEntries(session, sessionSpan(session).start),
    // Held finite: damaged counts (1e308) summed to Infinity, which JSON sends as null, outside the contract.
    cumulativeTokens: turns.map((t) => (tokens = heldSum(tokens, t.turn.tokens))),
    cumulativeCostUsd: anyCost ? turns.map((t) => (cost = heldSum(cost, t.turn.costUsd ?? 0))) : null,
  };
}

export interface CompareOptions {
  /** The catalogue's keys, which may carry a path hash the session's own key lacks. */
  keyA?: string;
  keyB?: string;
}

export function compareSessions(a: Session, b: Session, options: CompareOptions = {}): Comparison {
  const started = performance.now();
  const A = normalizeSession(a);
  const B = normalizeSession(b);
  const ids = new Ids();
  const promptKey = (t: NormalTurn) => ids.of(t.promptKey === null ? '\u0000preamble' : `p\u0000${t.promptKey}`);
  const bagsA = A.map((t) => wordBag(t.turn.prompt ?? '', ids.words));
  const bagsB = B.map((t) => wordBag(t.turn.prompt ?? '', ids.words));
  const similarity = (i: number, j: number) => {
    const pa = (A[i] as NormalTurn).promptKey;
    const pb = (B[j] as NormalTurn).promptKey;
    if (pa === null || pb === null) return pa === pb ? 1 : 0;
    return bagSimilarity(bagsA[i] as Int32Array, bagsB[j] as Int32Array);
  };
  const pairs = alignSequences(Int32Array.from(A, promptKey), Int32Array.from(B, promptKey), similarity, TURN_THRESHOLD);
  const rows = pairs.map((p) => turnRow(p, A, B, ids));
  const stats = { same: 0, changed: 0, inserted: 0, deleted: 0 };
  for (const r of rows) stats[r.status]++;
  const sideA = side(a, options.keyA ?? a.key, A);
  const sideB = side(b, options.keyB ?? b.key, B);
  const files = fileRows(a, b);
  return {
    a: sideA,
    b: sideB,
    header: headerRows(
      { session: a, turns: A, files: files.filter((f) => f.a.length > 0).length },
      { session: b, turns: B, files: files.filter((f) => f.b.length > 0).length },
    ),
    rows,
    operationRows: alignOperations(sideA.operations, sideB.operations),
    files,
    stats,
    limits: { textChars: TEXT_CHARS, resultChars: RESULT_CHARS },
    elapsedMs: Math.round((performance.now() - started) * 10) / 10,
  };
}
