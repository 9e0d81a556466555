// Reads a Claude Code transcript of the sample corpus (samples/claude-code/projects) a day after it changed, checked against the schema.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Session } from '../../../shared/session.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';
import { readClaudeCodeFile } from './claude-code.ts';

export const sampleProjects = join(samplesDir, 'claude-code/projects');
const DAY = 24 * 3600_000;

/** A transcript by its path under the sample projects folder. */
export async function readSample(rel: string): Promise<Session> {
  const path = join(sampleProjects, rel);
  const session = await readClaudeCodeFile(path, statSync(path).mtimeMs + DAY);
  return valid(session);
}
