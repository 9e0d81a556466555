// State shared while one ai-agent opTree is walked: collected operations and messages, unique ids, times, tallies.
import type { Message, ModelInfo, Operation } from '../../../shared/session.ts';
import { isoFromEpochMs, type Fields, type WarningList } from '../coerce.ts';
import type { PayloadRefs } from './ai-agent-payloads.ts';
import { UsageSum } from './ai-agent-usage.ts';

/** Where in the tree a SessionNode sits: the root, or a sub-agent embedded under the op that spawned it. */
export interface NodeScope {
  /** JSON pointer of the SessionNode, e.g. "/opTree" or "/opTree/turns/1/ops/1/childSession". */
  pointer: string;
  /** Prefix that keeps ids unique across embedded sub-agents (their op ids repeat). */
  idPrefix: string;
  /** Canonical id of the op that spawned this node; null at the root. */
  parentOpId: string | null;
  /** Sub-agent name for messages; null at the root. */
  agentId: string | null;
  depth: number;
}

/** Embedded sub-agents nested deeper than this are not walked (hostile or runaway trees). */
export const MAX_AGENT_DEPTH = 16;

export class TreeContext {
  readonly warnings: WarningList;
  readonly payloads: PayloadRefs;
  readonly operations: Operation[] = [];
  readonly messages: Message[] = [];
  /** Every accounting entry in the tree, sub-agents included (what opTree.totals also counts). */
  readonly usage = new UsageSum();
  readonly subAgents: Array<Record<string, unknown>> = [];
  readonly toolCharacters = { in: 0, out: 0, entries: 0 };
  /** The root agent's first model; a sub-agent's when the root itself made no LLM call. */
  model: ModelInfo | null = null;
  #modelDepth = Infinity;
  latestMs: number | null = null;
  readonly #ids = new Set<string>();
  readonly #unknownKinds = new Map<string, number>();
  readonly #lastSystemPrompt = new Map<string, string>();

  constructor(warnings: WarningList, payloads: PayloadRefs) {
    this.warnings = warnings;
    this.payloads = payloads;
  }

  /** `wanted`, or `wanted#2`, `wanted#3` … when a malformed tree repeats an id. */
  uniqueId(wanted: string): string {
    let id = wanted;
    for (let n = 2; this.#ids.has(id); n++) id = `${wanted}#${n}`;
    this.#ids.add(id);
    return id;
  }

  /** Epoch milliseconds (ai-agent's form) or ISO text to ISO-8601; remembers the latest time seen. */
  time(f: Fields, key: string): string | null {
    if (!f.present(key)) return null;
    const raw = f.raw[key];
    let iso: string | null = null;
    const fromMs = typeof raw === 'number' ? isoFromEpochMs(raw) : null;
    if (fromMs !== null) {
      f.used.add(key);
      iso = fromMs;
    } else if (typeof raw === 'string') iso = f.timestamp(key);
    else f.warnings.wrongType(f.name(key), 'a time in epoch milliseconds', raw);
    if (iso !== null) {
      const ms = Date.parse(iso);
      if (this.latestMs === null || ms > this.latestMs) this.latestMs = ms;
    }
    return iso;
  }

  noteModel(depth: number, model: ModelInfo): void {
    if (depth >= this.#modelDepth) return;
    this.model = model;
    this.#modelDepth = depth;
  }

  noteKind(kind: string): void {
    this.#unknownKinds.set(kind, (this.#unknownKinds.get(kind) ?? 0) + 1);
  }

  /** True when this system prompt differs from the last one this agent was given (it repeats every turn). */
  newSystemPrompt(agent: string | null, text: string): boolean {
    const key = agent ?? '';
    if (this.#lastSystemPrompt.get(key) === text) return false;
    this.#lastSystemPrompt.set(key, text);
    return true;
  }

  /** One warning per unknown operation kind, with how many operations had it. */
  flushUnknownKinds(): void {
    for (const [kind, n] of this.#unknownKinds) {
      const what = n === 1 ? '1 operation' : `${n} operations`;
      this.warnings.add('unknown_record_type', `Operation kind ${JSON.stringify(kind)} is not known to this app (${what}); shown as is.`);
    }
    this.#unknownKinds.clear();
  }
}
