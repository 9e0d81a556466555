// A session's cumulative tokens and cost after each turn (a turn: a prompt and everything up to the next one), from its loaded messages.
import type { Message } from '../../../shared/session.ts';

export interface CurvePoint {
  turn: number;
  tokens: number;
  costUsd: number;
}

const tokensOf = (m: Message) => (m.usage ? m.usage.input + m.usage.output + m.usage.cacheRead + m.usage.cacheWrite + m.usage.reasoning : 0);
const isPrompt = (m: Message) => m.role === 'user' && m.parts.some((p) => p.type === 'text' && p.text.trim() !== '');

/** One point per turn with usage so far; a session without prompts counts each call as a turn. Empty without any usage. */
export function cumulativeCurve(messages: readonly Message[]): CurvePoint[] {
  const prompts = messages.some(isPrompt);
  const points: CurvePoint[] = [];
  let tokens = 0;
  let costUsd = 0;
  let turn = 0;
  let open = false;
  for (const m of messages) {
    if (prompts ? isPrompt(m) : tokensOf(m) > 0 || (m.cost?.usd ?? 0) !== 0) {
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
