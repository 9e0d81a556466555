// A session's cumulative tokens and cost after each turn (a turn: a prompt and everything up to the next one), from its loaded messages, or its model calls where only those carry usage.
import type { Message, Operation, TokenUsage } from '../../../shared/session.ts';
import { totalTokens } from '../../../shared/summarize.ts';

export interface CurvePoint {
  turn: number;
  tokens: number;
  costUsd: number;
}

interface Spend {
  usage: TokenUsage | null;
  cost: { usd: number } | null;
}

const tokensOf = (s: Spend) => totalTokens(s.usage) ?? 0;
const spends = (s: Spend) => tokensOf(s) > 0 || (s.cost?.usd ?? 0) !== 0;
const isPrompt = (m: Message) => m.role === 'user' && m.parts.some((p) => p.type === 'text' && p.text.trim() !== '');
const timeOf = (at: string | null): number | null => {
  const t = at === null ? NaN : Date.parse(at);
  return Number.isNaN(t) ? null : t;
};

/**
 * One point per turn with usage so far; a session without prompts counts each call as a turn. Empty without any usage.
 * Usage comes from the messages; where none carries any but the session's operations do (a Cline-family task records
 * each request to the model as one), from those, as the usage tables count it (usage-rows.ts). `until`: the time of
 * the last message loaded when only the first ones are, so that operations past them wait for their turns.
 */
export function cumulativeCurve(messages: readonly Message[], operations: readonly Operation[] = [], until: string | null = null): CurvePoint[] {
  const calls = messages.some(spends) ? null : operations.filter(spends);
  return calls?.length ? curveOfOperations(messages, calls, timeOf(until)) : curveOfMessages(messages);
}

function curveOfMessages(messages: readonly Message[]): CurvePoint[] {
  const prompts = messages.some(isPrompt);
  const points: CurvePoint[] = [];
  let tokens = 0;
  let costUsd = 0;
  let turn = 0;
  let open = false;
  for (const m of messages) {
    if (prompts ? isPrompt(m) : spends(m)) {
      if (open) points.push({ turn, tokens, costUsd });
      turn++;
      open = true;
    }
    tokens += tokensOf(m);
    costUsd += m.cost?.usd ?? 0;
  }
  if (open) points.push({ turn, tokens, costUsd });
  return tokens > 0 || costUsd !== 0 ? points : [];
}

/**
 * Each call counts in the turn of the last prompt at or before its time (the first turn when it comes before every
 * prompt, the turn of the call before it when it has no time). Without timed prompts each call is a turn.
 */
function curveOfOperations(messages: readonly Message[], calls: readonly Operation[], untilMs: number | null): CurvePoint[] {
  const starts = messages
    .filter(isPrompt)
    .flatMap((m) => {
      const t = timeOf(m.timestamp);
      return t === null ? [] : [t];
    })
    .sort((a, b) => a - b);
  const sums: Array<{ tokens: number; costUsd: number }> = [];
  let turn = 1;
  for (const call of calls) {
    const at = timeOf(call.timestamp);
    if (untilMs !== null && (at === null || at > untilMs)) break;
    if (!starts.length) turn = sums.length + 1;
    else if (at !== null) turn = Math.max(1, promptsUpTo(starts, at));
    const sum = (sums[turn - 1] ??= { tokens: 0, costUsd: 0 });
    sum.tokens += tokensOf(call);
    sum.costUsd += call.cost?.usd ?? 0;
  }
  const points: CurvePoint[] = [];
  let tokens = 0;
  let costUsd = 0;
  for (let n = 1; n <= Math.max(starts.length, sums.length); n++) {
    tokens += sums[n - 1]?.tokens ?? 0;
    costUsd += sums[n - 1]?.costUsd ?? 0;
    points.push({ turn: n, tokens, costUsd });
  }
  return points;
}

/** How many of the sorted prompt times are at or before `at`. */
function promptsUpTo(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((starts[mid] as number) <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
