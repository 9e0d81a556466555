// Reading ai-agent snapshots in the reader's tests: through the reader, or a gzip's bytes parsed with a chosen mtime; operations by id.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Session } from '../../../shared/session.ts';
import type { DocumentContext } from '../coerce.ts';
import { aiAgentReader } from './ai-agent.ts';
import { parseGzipJson } from './ai-agent-gzip.ts';
import { parseAiAgentSnapshot } from './ai-agent-snapshot.ts';
import { samplesDir } from '../../test-support/samples.ts';
import { valid } from '../../test-support/reader-checks.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The project's own snapshot fixtures, in the tool's layout. */
export const fixtures = join(here, './fixtures/.ai-agent/sessions');
/** The sample corpus's snapshots. */
export const sampleSessions = join(samplesDir, 'ai-agent/sessions');
/** An mtime long past: a snapshot parsed with it is never active. */
export const LONG_AGO = 0;
export async function read(path: string): Promise<Session> {
  return valid(await aiAgentReader.read(path));
}

/** Parses a gzip file's bytes with a chosen mtime, so "active" vs "unknown" does not depend on when the file was copied. */
export async function parseBytes(path: string, mtimeMs = LONG_AGO, ctxPath = path, edit = (v: unknown) => v): Promise<Session> {
  const { value, warnings } = await parseGzipJson(readFileSync(path));
  const ctx: DocumentContext = { path: ctxPath, size: statSync(path).size, mtimeMs, warnings };
  return valid(parseAiAgentSnapshot(edit(value), ctx));
}

export const opIds = (s: Session) => s.operations.map((o) => o.id);
export const byId = (s: Session, id: string) => s.operations.find((o) => o.id === id);
