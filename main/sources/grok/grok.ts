// Reads Grok CLI (Grok Build) sessions: a folder <GROK_HOME>/sessions/<encoded cwd>/<id>/ listed once, by its summary.json.
import { dirname, join } from 'node:path';
import type { Session, SourceFile } from '../../../shared/session.ts';
import { readDocument, WarningList, type DocumentContext } from '../coerce.ts';
import { companionInside } from '../companion.ts';
import { readJsonFile } from '../decode.ts';
import { statPath } from '../file-bytes.ts';
import { readJsonLines } from '../jsonl.ts';
import { shellArg } from '../shell-quote.ts';
import { UnreadableError, type SourceReader } from '../types.ts';
import { claimsGrok, grokCompanion, grokRoots } from './grok-layout.ts';
import { buildGrokSession, type GrokFolder } from './grok-session.ts';
import { childIds, findParent, readChildMeta } from './grok-subagents.ts';
import { emptyGrokSummary, readGrokSignals, readGrokSummary, type GrokSummary } from './grok-summary.ts';
import { readGrokUpdates } from './grok-updates.ts';

/** A companion file of the session folder: its facts, or null when it is absent or a link to a file elsewhere. */
async function fileIn(sessionDir: string, name: string, role: SourceFile['role']): Promise<SourceFile | null> {
  const path = join(sessionDir, name);
  if (!(await companionInside(path, sessionDir))) return null;
  try {
    const info = await statPath(path);
    return info.isFile() ? { path, size: info.size, mtimeMs: info.mtimeMs, role } : null;
  } catch {
    return null;
  }
}

async function readHistory(sessionDir: string): Promise<Pick<GrokFolder, 'history' | 'historyProblem'>> {
  const file = await fileIn(sessionDir, 'chat_history.jsonl', 'transcript');
  if (!file) return { history: null, historyProblem: null };
  try {
    const { records, warnings } = await readJsonLines(file.path);
    return { history: { records, file, warnings }, historyProblem: null };
  } catch (err) {
    // An empty or broken transcript still leaves the summary worth listing.
    return { history: null, historyProblem: err instanceof UnreadableError ? err.message : String(err) };
  }
}

async function readSignals(sessionDir: string, warnings: WarningList): Promise<GrokFolder['signals']> {
  const file = await fileIn(sessionDir, 'signals.json', 'meta');
  if (!file) return null;
  try {
    const { value } = await readJsonFile(file.path);
    return { values: readGrokSignals(value, warnings), file };
  } catch (err) {
    warnings.add('bad_meta', `signals.json cannot be read (${(err as Error).message}); it was ignored.`);
    return null;
  }
}

/** summary.json's facts, or, when it is no usable summary ({}, [], not JSON), why not: the transcript may still be read. */
async function readSummary(summaryPath: string): Promise<{ summary: GrokSummary; ctx: DocumentContext; unusable: UnreadableError | null }> {
  let ctx: DocumentContext | null = null;
  try {
    const document = await readDocument(summaryPath);
    ctx = document.ctx;
    const warnings = new WarningList();
    warnings.addAll(ctx.warnings);
    const summary = readGrokSummary(document.value, warnings);
    return { summary, ctx: { ...ctx, warnings: warnings.list() }, unusable: null };
  } catch (err) {
    if (!(err instanceof UnreadableError) || err.code === 'io_error') throw err;
    if (!ctx) {
      const info = await statPath(summaryPath).catch(() => null);
      if (!info) throw err;
      ctx = { path: summaryPath, size: info.size, mtimeMs: info.mtimeMs, warnings: [] };
    }
    return { summary: emptyGrokSummary(), ctx: { ...ctx, warnings: [] }, unusable: err };
  }
}

export async function readGrokFolder(summaryPath: string, now = Date.now()): Promise<Session> {
  const { summary, ctx, unusable } = await readSummary(summaryPath);
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const sessionDir = dirname(summaryPath);
  const updatesFile = await fileIn(sessionDir, 'updates.jsonl', 'transcript');
  const [history, signals, updates, ids] = await Promise.all([
    readHistory(sessionDir),
    readSignals(sessionDir, warnings),
    updatesFile
      ? readGrokUpdates(updatesFile.path).then(
          (data) => ({ data, file: updatesFile }),
          (err: unknown) => {
            warnings.add(
              'transcript_unreadable',
              `updates.jsonl cannot be read (${(err as Error).message}); message times, tool outcomes and tokens are unknown.`,
            );
            return null;
          },
        )
      : Promise.resolve(null),
    childIds(sessionDir),
  ]);
  if (unusable) {
    // Without its summary a folder is a session only through its transcript; with neither, the summary's fault is the reason.
    if (!history.history) throw unusable;
    warnings.add(
      'summary_unusable',
      `summary.json cannot be used (${unusable.message.replace(/\.$/, '')}); the session is read from chat_history.jsonl alone: its id is the folder's name, its title its first prompt.`,
    );
  }
  // Only a session that says it is a sub-agent has its parent looked for among its siblings.
  const parent = summary.sessionKind === 'subagent' && !summary.parentSessionId ? await findParent(sessionDir) : null;
  const children = await Promise.all(ids.map(async (id) => ({ id, link: await readChildMeta(sessionDir, id) })));
  return buildGrokSession({ now, summaryFile: { ...ctx, warnings: warnings.list() }, summary, ...history, updates, signals, parent, children });
}

export const grokReader: SourceReader = {
  format: 'grok',
  capabilities: { tokens: true, recordedCost: true, subAgents: true, toolResults: true, thinking: true, images: true },
  defaultRoots: grokRoots,
  // `grok --resume <session-id>` (docs.x.ai, Grok Build: Sessions); a sub-agent runs inside its parent's turn.
  resumeCommand: (s) => (s.isSubAgent ? null : `grok --resume ${shellArg(s.id)}`),
  claims: claimsGrok,
  companion: grokCompanion,
  read: (absPath) => readGrokFolder(absPath),
};
