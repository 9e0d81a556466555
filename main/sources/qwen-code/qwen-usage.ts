// Qwen Code token counts: the Gemini API's usageMetadata on each assistant record.
import type { TokenUsage } from '../../../shared/session.ts';
import type { Fields } from '../coerce.ts';

/**
 * `usageMetadata: {promptTokenCount, candidatesTokenCount, thoughtsTokenCount, cachedContentTokenCount,
 * toolUsePromptTokenCount}`. The prompt count includes the cached part (billed apart); thoughts are not in the
 * candidates count, as in the Gemini API.
 */
export function qwenUsage(record: Fields): TokenUsage | null {
  const u = record.present('usageMetadata') ? record.object('usageMetadata') : null;
  if (!u) return null;
  const prompt = u.number('promptTokenCount');
  const output = u.number('candidatesTokenCount');
  const cached = u.number('cachedContentTokenCount');
  const thoughts = u.number('thoughtsTokenCount');
  const tool = u.number('toolUsePromptTokenCount');
  if (prompt === null && output === null && cached === null && thoughts === null) return null;
  const n = (v: number | null) => Math.max(0, v ?? 0);
  return { input: Math.max(0, n(prompt) - n(cached)) + n(tool), output: n(output), cacheRead: n(cached), cacheWrite: 0, reasoning: n(thoughts) };
}
