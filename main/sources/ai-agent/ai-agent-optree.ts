// Walks an ai-agent opTree SessionNode (turns, steps, embedded sub-agents) into one operation tree and one message list.
import type { Operation } from '../../../shared/session.ts';
import { elementFields, limitDepth, type Fields } from '../coerce.ts';
import { readOp, type TurnInfo } from './ai-agent-op.ts';
import { MAX_AGENT_DEPTH, type NodeScope, type TreeContext } from './ai-agent-tree-context.ts';
import { UsageSum } from './ai-agent-usage.ts';

/** Turn attributes shown in the detail; the prompts become messages instead. */
function turnAttributes(attrs: Fields | null, ctx: TreeContext): Record<string, unknown> | null {
  if (!attrs) return null;
  const rest = Object.fromEntries(Object.entries(attrs.raw).filter(([k]) => k !== 'prompts'));
  return Object.keys(rest).length ? (limitDepth(rest, ctx.warnings, attrs.path) as Record<string, unknown>) : null;
}

function promptMessages(attrs: Fields | null, turnId: string, at: string | null, pointer: string, scope: NodeScope, ctx: TreeContext): void {
  const prompts = attrs?.object('prompts');
  if (!prompts) return;
  const system = prompts.string('system');
  const user = prompts.string('user');
  const base = { model: null, usage: null, cost: null, agentId: scope.agentId, timestamp: at };
  if (system !== null && system.trim() && ctx.newSystemPrompt(scope.agentId, system)) {
    ctx.messages.push({
      ...base,
      id: `${turnId}:system`,
      role: 'system',
      parts: [{ type: 'text', text: system }],
      origin: { fileIndex: 0, line: null, pointer: `${pointer}/attributes/prompts/system` },
    });
  }
  if (user !== null && user.trim()) {
    ctx.messages.push({
      ...base,
      id: `${turnId}:user`,
      role: 'user',
      parts: [{ type: 'text', text: user }],
      origin: { fileIndex: 0, line: null, pointer: `${pointer}/attributes/prompts/user` },
    });
  }
}

/** A TurnNode (or a v2 `steps[]` entry): one 'turn' / 'step' operation with its ops nested under it. */
function walkTurn(raw: unknown, i: number, list: 'turns' | 'steps', node: Fields, scope: NodeScope, ctx: TreeContext): void {
  const f = elementFields(raw, node.name(list), ctx.warnings);
  if (!f) return;
  const pointer = `${scope.pointer}/${list}/${i}`;
  const index = f.number('index') ?? i;
  const kind = list === 'turns' ? 'turn' : 'step';
  const id = ctx.uniqueId(`${scope.idPrefix}${kind}-${index}`);
  const attrs = f.object('attributes');
  const label = attrs?.string('label') ?? f.string('label') ?? (list === 'steps' ? f.string('kind') : null);
  const startedAt = ctx.time(f, 'startedAt');
  const endedAt = ctx.time(f, 'endedAt');
  const ops = f.array('ops') ?? [];
  const opKinds = ops.map((o) => (o !== null && typeof o === 'object' && 'kind' in o ? (o as { kind: unknown }).kind : null));
  const turn: TurnInfo = { id, pointer, field: f.name('ops'), hasToolOps: opKinds.some((k) => k === 'tool' || k === 'session'), sum: new UsageSum() };
  const detail: Record<string, unknown> = { index };
  const shownAttrs = turnAttributes(attrs, ctx);
  if (shownAttrs) detail.attributes = shownAttrs;
  if (endedAt === null) detail.unfinished = true;
  const op: Operation = {
    id,
    type: kind,
    name: `${kind === 'turn' ? 'Turn' : 'Step'} ${index}${label ? ` (${label})` : ''}`,
    timestamp: startedAt,
    endedAt,
    status: null,
    latencyMs: startedAt && endedAt ? Date.parse(endedAt) - Date.parse(startedAt) : null,
    detail,
    vcs: null,
    usage: null,
    cost: null,
    parentId: scope.parentOpId,
    childSessionKey: null,
    origin: { fileIndex: 0, line: null, pointer },
  };
  ctx.operations.push(op);
  promptMessages(attrs, id, startedAt, pointer, scope, ctx);
  ops.forEach((o, j) => readOp(o, j, turn, scope, ctx, (node, childScope) => walkSessionNode(node, childScope, ctx)));
  op.usage = turn.sum.usage;
  op.cost = turn.sum.cost();
}

/** Walks turns, then steps, of one SessionNode; embedded sub-agents recurse through their spawning op. */
export function walkSessionNode(node: Fields, scope: NodeScope, ctx: TreeContext): void {
  if (scope.depth > MAX_AGENT_DEPTH) {
    ctx.warnings.add('too_deep', `Sub-agents are nested more than ${MAX_AGENT_DEPTH} levels deep; the deeper ones were left out.`);
    return;
  }
  (node.array('turns') ?? []).forEach((t, i) => walkTurn(t, i, 'turns', node, scope, ctx));
  (node.array('steps') ?? []).forEach((t, i) => walkTurn(t, i, 'steps', node, scope, ctx));
}
