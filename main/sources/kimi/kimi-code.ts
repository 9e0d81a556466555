// Reads one Kimi Code agent journal (agents/<agentId>/wire.jsonl) with its session's state.json: main agent or sub-agent.
import { join } from 'node:path';
import type { Session, SourceFile } from '../../../shared/session.ts';
import { isRecord, primarySourceFile, toIsoTimestamp, WarningList, type DocumentContext } from '../coerce.ts';
import type { JsonLine } from '../jsonl.ts';
import { foldersWith, readObjectCompanion } from './kimi-companions.ts';
import { readJournal } from './kimi-journal.ts';
import { agentKey, type KimiLayout } from './kimi-paths.ts';
import { buildKimiSession } from './kimi-session.ts';
import { newKimiState } from './kimi-state.ts';

type CodeLayout = Extract<KimiLayout, { kind: 'code' }>;

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** Each agent's parent, from state.json `agents{}` (`parentAgentId`), and from the folders for agents it does not list. */
function parentsOf(agents: Record<string, unknown>, onDisk: readonly string[]): Map<string, string | null> {
  const parents = new Map<string, string | null>();
  for (const [id, entry] of Object.entries(agents)) {
    const parent = isRecord(entry) ? text(entry.parentAgentId) : null;
    parents.set(id, id === 'main' ? null : (parent ?? 'main'));
  }
  for (const id of onDisk) if (!parents.has(id)) parents.set(id, id === 'main' ? null : 'main');
  return parents;
}

export async function readKimiCodeAgent(ctx: DocumentContext, records: readonly JsonLine[], layout: CodeLayout, now: number): Promise<Session> {
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const side = await readObjectCompanion(join(layout.sessionDir, 'state.json'), layout.sessionDir);
  if (side && 'problem' in side) warnings.add('bad_companion', `The session's ${side.problem}; it was read without it.`);
  const meta = side && 'value' in side ? side.value : {};
  const sourceFiles: SourceFile[] = [primarySourceFile(ctx)];
  if (side && 'value' in side) sourceFiles.push(side.file);

  const state = newKimiState(warnings, 0);
  readJournal(state, records);

  const agents = isRecord(meta.agents) ? meta.agents : {};
  const parents = parentsOf(agents, await foldersWith(join(layout.sessionDir, 'agents'), 'wire.jsonl'));
  const own = layout.agentId;
  const parent = parents.get(own) ?? (own === 'main' ? null : 'main');
  const children = [...parents]
    .filter(([id, p]) => id !== own && p === own)
    .map(([id]) => id)
    .sort();
  const entry = isRecord(agents[own]) ? agents[own] : {};
  const extra: Record<string, unknown> = { agentId: own };
  if (meta.archived === true) extra.archived = true;
  if (text(entry.type) && own !== 'main') extra.agentType = entry.type;
  const isMain = own === 'main';
  const stamp = (v: unknown) => (typeof v === 'string' ? toIsoTimestamp(v) : null);
  return buildKimiSession(state, ctx, {
    id: isMain ? layout.sessionId : `${layout.sessionId}/${own}`,
    key: agentKey(layout.sessionId, own),
    parentKey: parent === null ? null : agentKey(layout.sessionId, parent),
    childKeys: children.map((id) => agentKey(layout.sessionId, id)),
    titles: isMain ? [text(meta.title), text(meta.lastPrompt)] : [text(entry.description), text(entry.name)],
    fallbackTitle: isMain ? `Kimi Code session ${layout.sessionId.replace(/^session_/, '').slice(0, 8)}` : `Sub-agent ${text(entry.type) ?? own}`,
    // state.json's workDir is where the session runs; the journal only repeats it when the config changes.
    cwd: text(meta.workDir),
    createdAt: isMain ? stamp(meta.createdAt) : null,
    updatedAt: isMain ? stamp(meta.updatedAt) : null,
    turnsKnown: true,
    sourceFiles,
    extra,
    now,
  });
}
