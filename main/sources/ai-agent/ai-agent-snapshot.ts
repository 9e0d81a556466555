// Reads ai-agent v1/v2 session snapshots (~/.ai-agent/sessions/<originId>.json.gz = gzip of {version, reason, opTree}).
import type { Outcome, Session } from '../../../shared/session.ts';
import {
  Fields,
  isRecord,
  lastSegment,
  limitDepth,
  notAnObject,
  primarySourceFile,
  titleFromText,
  warnUnknownFields,
  WarningList,
  type DocumentContext,
} from '../coerce.ts';
import { readGzipDocument } from './ai-agent-gzip.ts';
import { walkSessionNode } from './ai-agent-optree.ts';
import { snapshotRoot } from './ai-agent-paths.ts';
import { recentlyActive } from '../../../shared/activity.ts';
import { bool, PayloadRefs } from './ai-agent-payloads.ts';
import { TreeContext } from './ai-agent-tree-context.ts';
import { readTotals } from './ai-agent-usage.ts';
import { UnreadableError } from '../types.ts';

export const SNAPSHOT_VERSIONS = [1, 2];
const ENVELOPE_FIELDS = ['version', 'reason', 'opTree', 'snapshot', 'sessionId', 'originId', 'originTxnId', 'parentId', 'parentTxnId', 'timestamp'];

/** `version` must be 1 or 2 (numeric text is accepted); a missing or non-numeric one is read as 2 with a warning. */
function readVersion(body: Fields, top: Fields): number {
  const holder = body.present('version') ? body : top;
  const raw = holder.raw.version;
  const version = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : holder.number('version');
  if (version === null) {
    top.warnings.add('missing_field', 'The snapshot has no usable "version"; it was read as version 2.');
    return 2;
  }
  if (!SNAPSHOT_VERSIONS.includes(version)) {
    throw new UnreadableError('unsupported_version', `ai-agent snapshot version ${version} is not supported (this app reads snapshot versions 1 and 2).`);
  }
  return version;
}

/** finalReport {status?, format, content? | summary?, ...}: its text, when it has one. */
function reportText(report: Fields | null): string | null {
  if (!report) return null;
  const content = report.raw.content;
  if (typeof content === 'string' && content.trim()) return content;
  const summary = report.string('summary');
  if (summary !== null && summary.trim()) return summary;
  return content !== undefined && content !== null && typeof content !== 'string'
    ? JSON.stringify(limitDepth(content, report.warnings, report.name('content')))
    : null;
}

function readOutcome(tree: Fields, closed: boolean): Outcome | null {
  if (!closed) return null;
  const success = bool(tree, 'success');
  const error = tree.string('error');
  const report = tree.object('finalReport');
  const text = reportText(report);
  if (success === true) return { status: 'success', summary: text, commitSha: null };
  if (success === false || error !== null) return { status: 'failed', summary: error ?? text, commitSha: null };
  const stated = report?.string('status') ?? null;
  return stated !== null ? { status: stated, summary: text, commitSha: null } : null;
}

function stem(path: string): string {
  return (lastSegment(path) ?? path).replace(/\.json\.gz$/i, '');
}

/** Builds the session and keeps the payload refs so `read` can look their files up afterwards. */
export function buildSnapshotSession(value: unknown, ctx: DocumentContext): { session: Session; payloads: PayloadRefs; warnings: WarningList } {
  if (!isRecord(value)) throw notAnObject(value, 'ai-agent snapshot');
  const warnings = new WarningList();
  warnings.addAll(ctx.warnings);
  const top = new Fields(value, '', warnings);
  // The in-process event payload nests {version, opTree} under `snapshot`; the file has them at the top.
  const body = top.present('opTree') ? top : (top.object('snapshot') ?? top);
  const version = readVersion(body, top);
  const tree = body.object('opTree');
  if (!tree) {
    const found = top.present('opTree') ? `"opTree" is ${typeof value.opTree}` : `its fields are ${Object.keys(value).join(', ') || 'none'}`;
    throw new UnreadableError('wrong_shape', `Not an ai-agent snapshot: there is no "opTree" object (${found}).`);
  }
  warnUnknownFields(top, ENVELOPE_FIELDS);

  const payloads = new PayloadRefs(snapshotRoot(ctx.path), warnings);
  const tc = new TreeContext(warnings, payloads);
  const createdAt = tc.time(tree, 'startedAt');
  const endedAt = tc.time(tree, 'endedAt');
  const envelopeTime = tc.time(top, 'timestamp');
  walkSessionNode(tree, { pointer: body === top ? '/opTree' : '/snapshot/opTree', idPrefix: '', parentOpId: null, agentId: null, depth: 0 }, tc);
  tc.flushUnknownKinds();

  const id = top.string('originId') ?? tree.string('traceId') ?? stem(ctx.path);
  const reason = top.string('reason');
  const closed = endedAt !== null;
  const updatedAt = tc.latestMs !== null ? new Date(tc.latestMs).toISOString() : null;
  // Running needs a fresh file and fresh times of its own: a snapshot copied today keeps its old ones.
  const status = closed ? 'closed' : recentlyActive(Date.now(), ctx.mtimeMs, updatedAt ?? envelopeTime) ? 'active' : 'unknown';
  if (status === 'unknown') {
    const written =
      reason === 'subagent_finish' ? 'Its last snapshot was written when a sub-agent finished and has no end time' : 'The snapshot has no end time';
    warnings.add('incomplete_session', `${written}: ai-agent was interrupted before the session ended; this is its last saved state.`);
  }
  const totals = readTotals(tree.object('totals'));
  const summed = tc.usage;
  const agentId = tree.string('agentId');
  const firstUser = tc.messages.find((m) => m.role === 'user' && m.agentId === null)?.parts[0];
  const rootSystem = tc.messages.find((m) => m.role === 'system' && m.agentId === null)?.parts[0];
  const report = tree.object('finalReport');
  const totalsF = tree.object('totals');

  const extra: Record<string, unknown> = {
    snapshotReason: reason,
    agentId,
    callPath: tree.string('callPath'),
    traceId: tree.string('traceId'),
    nodeId: tree.string('id'),
  };
  for (const key of ['sessionId', 'originTxnId', 'parentId', 'parentTxnId']) {
    const v = top.string(key);
    if (v !== null) extra[key] = v;
  }
  if (envelopeTime !== null) extra.snapshotWrittenAt = envelopeTime;
  const latestStatus = tree.string('latestStatus');
  if (latestStatus) extra.latestStatus = latestStatus;
  if (report) extra.finalReport = limitDepth(report.raw, warnings, report.path);
  if (tree.present('pluginMetas')) extra.pluginMetas = tree.value('pluginMetas');
  if (tree.present('attributes')) extra.attributes = tree.value('attributes');
  const toolsRun = totalsF?.number('toolsRun');
  const agentsRun = totalsF?.number('agentsRun');
  if (toolsRun != null) extra.toolsRun = toolsRun;
  if (agentsRun != null) extra.agentsRun = agentsRun;
  if (tc.subAgents.length) extra.subAgents = tc.subAgents;
  if (tc.toolCharacters.entries) extra.toolCharacters = { in: tc.toolCharacters.in, out: tc.toolCharacters.out };

  const session: Session = {
    key: `ai-agent:${id}`,
    id,
    format: 'ai-agent',
    formatVersion: String(version),
    title:
      titleFromText(tree.string('sessionTitle')) ??
      (firstUser?.type === 'text' ? titleFromText(firstUser.text) : null) ??
      titleFromText(agentId) ??
      `ai-agent session ${id.slice(0, 8)}`,
    project: { path: null, name: null, branch: null, headCommit: null },
    createdAt,
    updatedAt,
    closedAt: endedAt,
    status,
    outcome: readOutcome(tree, closed),
    model: tc.model,
    config: [],
    systemPrompt: rootSystem?.type === 'text' ? { path: null, hash: null, text: rootSystem.text } : null,
    toolVersion: null,
    messages: tc.messages,
    operations: tc.operations,
    todos: [],
    summary: null,
    artifacts: [],
    // opTree.totals already include embedded sub-agents; without totals the walk's sum over every accounting entry says the same.
    usage: totals.usage ?? summed.usage,
    cost: totals.costUsd !== null ? { usd: totals.costUsd, estimated: false } : summed.cost(),
    parentKey: null,
    childKeys: [],
    sourceFiles: [primarySourceFile(ctx)],
    warnings: [],
    extra,
  };
  session.warnings = warnings.list();
  return { session, payloads, warnings };
}

/** Parses a decompressed snapshot document (pure: payload files are not looked up). */
export function parseAiAgentSnapshot(value: unknown, ctx: DocumentContext): Session {
  return buildSnapshotSession(value, ctx).session;
}

/** Reads one `.json.gz` snapshot and checks which captured payload files it references are on disk. */
export async function readAiAgentSnapshot(absPath: string): Promise<Session> {
  const { value, ctx } = await readGzipDocument(absPath);
  const { session, payloads, warnings } = buildSnapshotSession(value, ctx);
  await payloads.probe();
  session.warnings = warnings.list();
  return session;
}
