// Reads a Droid session's `<id>.settings.json` companion: its model, provider and token totals (thinking tokens included).
import { dirname } from 'node:path';
import type { SourceFile, TokenUsage } from '../../../shared/session.ts';
import { Fields, isRecord, type WarningList } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { readJsonFile } from '../decode.ts';
import { statPath } from '../file-bytes.ts';

export interface DroidSettings {
  model: string | null;
  provider: string | null;
  usage: TokenUsage | null;
  config: Record<string, unknown>;
  file: SourceFile;
}

export function settingsPathOf(sessionPath: string): string {
  return sessionPath.replace(/\.jsonl$/, '.settings.json');
}

function tokenUsage(usage: Fields | null): TokenUsage | null {
  if (!usage) return null;
  const n = (key: string) => Math.max(0, usage.number(key) ?? 0);
  const found = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheCreationTokens', 'thinkingTokens'].some((k) => usage.present(k));
  return found
    ? {
        input: n('inputTokens'),
        output: n('outputTokens'),
        cacheRead: n('cacheReadTokens'),
        cacheWrite: n('cacheCreationTokens'),
        reasoning: n('thinkingTokens'),
      }
    : null;
}

/**
 * The settings beside a session file; null when there are none (or they are a link to a file outside the session's
 * folder). A settings file that cannot be read is reported as a warning, and the session is read without it.
 */
export async function readDroidSettings(sessionPath: string, warnings: WarningList): Promise<DroidSettings | null> {
  const path = settingsPathOf(sessionPath);
  if (!(await companionInside(path, dirname(sessionPath)))) return null;
  try {
    const info = await statPath(path);
    const { value } = await readJsonFile(path);
    if (!isRecord(value)) {
      warnings.add('bad_settings', "The session's .settings.json does not hold a JSON object; its model and tokens are unknown.");
      return null;
    }
    const rec = new Fields(value, 'settings', warnings);
    const config: Record<string, unknown> = {};
    for (const key of ['reasoningEffort', 'autonomyMode', 'autonomyLevel', 'specModeModel']) if (rec.present(key)) config[key] = rec.value(key);
    return {
      model: rec.string('model'),
      provider: rec.string('providerLock'),
      usage: tokenUsage(rec.object('tokenUsage')),
      config,
      file: { path, size: info.size, mtimeMs: info.mtimeMs, role: 'meta' },
    };
  } catch (err) {
    warnings.add('bad_settings', `The session's .settings.json cannot be read (${(err as Error).message}); its model and tokens are unknown.`);
    return null;
  }
}
