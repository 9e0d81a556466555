// Turns Codebuff's content blocks (text, reasoning, tool, agent, mode-divider, plan, ask-user, image) into canonical messages, sub-agent runs nested by agentId.
import type { Message, MessagePart, MessageRole, TokenUsage } from '../../../shared/session.ts';
import { elementFields, type Fields, isRecord, limitDepth, type WarningList } from '../coerce.ts';
import { wellFormed } from '../claude-code/claude-code-blocks.ts';

/**
 * Panels the CLI shows for its own commands (/doctor, /context, /memory ...) or computes live: no words of the
 * conversation, counted and left out.
 */
const UI_BLOCKS = new Set([
  'html',
  'agent-list',
  'gate-state',
  'completion-summary',
  'context',
  'info',
  'doctor',
  'index-status',
  'plan-status',
  'plan-status-list',
  'memory',
]);

export interface BlockAcc {
  warnings: WarningList;
  messages: Message[];
  ids: Set<string>;
  unknownBlocks: Map<string, number>;
  uiBlocks: number;
  /** Sub-agent runs seen, for their fallback ids. */
  agents: number;
}

/** Where the blocks sit: the chat message they belong to and the sub-agent running them (null for the main agent). */
export interface BlockPlace {
  baseId: string;
  pointer: string;
  timestamp: string | null;
  agentId: string | null;
  model: string | null;
}

export function pushMessage(
  acc: BlockAcc,
  place: BlockPlace,
  role: MessageRole,
  parts: MessagePart[],
  extras: { usage?: TokenUsage | null; annotations?: unknown } = {},
): Message {
  let id = place.baseId;
  for (let n = 2; acc.ids.has(id); n++) id = `${place.baseId}#${n}`;
  acc.ids.add(id);
  const message: Message = {
    id,
    role,
    timestamp: place.timestamp,
    model: role === 'assistant' ? place.model : null,
    usage: extras.usage ?? null,
    cost: null,
    parts,
    agentId: place.agentId,
    origin: { fileIndex: 0, line: null, pointer: place.pointer },
  };
  if (extras.annotations !== undefined) message.annotations = extras.annotations;
  acc.messages.push(message);
  return message;
}

/** A tool's output as text: Codebuff keeps a display string in `output` and the structured value in `outputRaw`. */
function outputText(tool: Fields): string | null {
  const { raw, warnings } = tool;
  if (typeof raw.output === 'string') return wellFormed(raw.output, warnings);
  if (raw.outputRaw !== undefined && raw.outputRaw !== null) {
    return typeof raw.outputRaw === 'string'
      ? wellFormed(raw.outputRaw, warnings)
      : JSON.stringify(limitDepth(raw.outputRaw, warnings, tool.name('outputRaw')));
  }
  return null;
}

function askUserText(block: Fields): string {
  const questions = block.array('questions') ?? [];
  const lines = questions.flatMap((q) => (isRecord(q) && typeof q.question === 'string' ? [`Question: ${q.question}`] : []));
  const answers = block.present('answers') ? (block.array('answers') ?? []) : [];
  for (const a of answers) {
    if (!isRecord(a)) continue;
    const picked = [a.selectedOption, ...(Array.isArray(a.selectedOptions) ? a.selectedOptions : []), a.otherText].filter(
      (v): v is string => typeof v === 'string' && v !== '',
    );
    if (picked.length) lines.push(`Answer: ${picked.join(', ')}`);
  }
  if (block.raw.skipped === true) lines.push('(skipped)');
  return lines.join('\n');
}

/** Collects one agent's parts in order and writes them out as an assistant message, then a tool message with the results of its calls. */
class Turn {
  #assistant: MessagePart[] = [];
  #results: MessagePart[] = [];
  readonly #acc: BlockAcc;
  readonly #place: BlockPlace;

  constructor(acc: BlockAcc, place: BlockPlace) {
    this.#acc = acc;
    this.#place = place;
  }

  say(part: MessagePart): void {
    if (this.#results.length) this.flush();
    this.#assistant.push(part);
  }

  call(call: MessagePart, result: MessagePart | null): void {
    this.#assistant.push(call);
    if (result) this.#results.push(result);
  }

  flush(): void {
    if (this.#assistant.length) pushMessage(this.#acc, this.#place, 'assistant', this.#assistant);
    if (this.#results.length) pushMessage(this.#acc, this.#place, 'tool', this.#results);
    this.#assistant = [];
    this.#results = [];
  }
}

/** A sub-agent run: its prompt and its own blocks, all carrying its agentId so they show nested under the spawning call. */
function agentRun(block: Fields, place: BlockPlace, acc: BlockAcc): void {
  acc.agents++;
  const agentId = block.string('agentId') ?? `agent-${acc.agents}`;
  const own: BlockPlace = { ...place, agentId, baseId: `${place.baseId}/${agentId}` };
  const annotations: Record<string, unknown> = {};
  for (const key of ['agentType', 'agentName', 'status'] as const) {
    const value = block.string(key);
    if (value !== null) annotations[key] = value;
  }
  const spawn = block.present('spawnToolCallId') ? block.string('spawnToolCallId') : null;
  if (spawn) annotations.parentToolCallId = spawn;
  if (block.present('params')) annotations.params = block.value('params');
  const prompt = block.present('initialPrompt') ? block.string('initialPrompt') : null;
  if (prompt) pushMessage(acc, own, 'user', [{ type: 'text', text: wellFormed(prompt, acc.warnings) }], { annotations });
  const nested = block.present('blocks') ? block.array('blocks') : null;
  const before = acc.messages.length;
  if (nested) convertBlocks(nested, own, acc, block.name('blocks'));
  const content = block.string('content');
  // Older runs keep only their final output in `content`; newer ones also have it as their last text block.
  if (acc.messages.length === before && content) pushMessage(acc, own, 'assistant', [{ type: 'text', text: wellFormed(content, acc.warnings) }]);
  const first = acc.messages[before];
  if (first && !prompt) first.annotations = annotations;
}

/** Converts one list of blocks in order; sub-agent runs and mode changes become messages of their own. */
export function convertBlocks(blocks: unknown[], place: BlockPlace, acc: BlockAcc, field: string): void {
  const turn = new Turn(acc, place);
  for (const raw of blocks) {
    const block = elementFields(raw, field, acc.warnings);
    if (!block) continue;
    const type = block.string('type');
    switch (type) {
      case 'text': {
        const text = wellFormed(block.string('content') ?? '', acc.warnings);
        if (text.trim() === '') break;
        turn.say(block.string('textType') === 'reasoning' ? { type: 'thinking', text, redacted: false } : { type: 'text', text });
        break;
      }
      case 'tool': {
        const callId = block.string('toolCallId');
        const output = outputText(block);
        const lifecycle = block.present('lifecycle') ? block.string('lifecycle') : null;
        const isError = lifecycle === 'failed' ? true : lifecycle === 'succeeded' ? false : null;
        turn.call(
          { type: 'tool_call', callId, name: block.string('toolName') ?? 'tool', input: block.value('input') ?? null },
          output !== null ? { type: 'tool_result', callId, output, isError } : null,
        );
        break;
      }
      case 'agent':
        turn.flush();
        agentRun(block, place, acc);
        break;
      case 'mode-divider':
        turn.flush();
        pushMessage(acc, place, 'system', [{ type: 'text', text: `Mode: ${block.string('mode') ?? 'unknown'}` }], { annotations: { kind: 'mode-divider' } });
        break;
      case 'plan': {
        const text = block.string('content') ?? '';
        if (text.trim()) turn.say({ type: 'text', text: wellFormed(`Plan:\n${text}`, acc.warnings) });
        break;
      }
      case 'ask-user': {
        const text = askUserText(block);
        if (text) turn.say({ type: 'text', text: wellFormed(text, acc.warnings) });
        break;
      }
      case 'image':
        turn.say({ type: 'image', mediaType: block.string('mediaType'), data: block.string('image'), url: null });
        break;
      default:
        if (type !== null && UI_BLOCKS.has(type)) acc.uiBlocks++;
        else acc.unknownBlocks.set(type ?? 'without a type', (acc.unknownBlocks.get(type ?? 'without a type') ?? 0) + 1);
    }
  }
  turn.flush();
}
