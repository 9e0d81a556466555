// Reads a Codex rollout of the sample corpus (samples/codex/sessions) an hour after it changed, checking the path is claimed and the schema holds.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Session } from '../../../shared/session.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { claimsCodex, readCodexFile } from './codex.ts';

export const codexSamples = join(samplesDir, 'codex');

/** Read as if an hour had passed since the file was last written, so no sample looks live. */
export async function readSample(rel: string): Promise<Session> {
  const path = join(codexSamples, 'sessions', rel);
  expect(claimsCodex(path)).toBe(true);
  const s = await readCodexFile(path, statSync(path).mtimeMs + 60 * 60 * 1000);
  return valid(s);
}
