// Rebuilds one aider run's conversation from its Markdown lines: `#### ` user input, `> ` aider's own output, anything else the assistant.
import type { Message, MessageRole, TokenUsage } from '../../../shared/session.ts';
import { addUsage, emptyUsage } from '../coerce.ts';
import type { RunLine } from './aider-runs.ts';

export interface RunFacts {
  messages: Message[];
  /** `> Model: X with ... edit format` / `> Main model: X ...` announced at start-up. */
  model: string | null;
  /** `> Aider v0.86.1`. */
  version: string | null;
  /** `> Git repo: .git with N files`. */
  gitRepo: string | null;
  /** Files aider reported editing or creating (`Applied edit to`, `Creating empty file`), relative to the repository. */
  edited: string[];
  /** The last `Cost: $x message, $y session.` total: what the run cost, as aider counted it. */
  sessionCostUsd: number | null;
  /** Inputs aider logged as `<blank>` (the user pressed Enter on an empty prompt). */
  blankInputs: number;
  /** Every `Tokens:` line of the run added up (each also goes on the answer it follows). */
  usage: TokenUsage | null;
}

type Channel = 'user' | 'assistant' | 'tool';

/** aider's format_tokens: `123`, `2.4k`, `12k` (values from 1,000 up are rounded, so counts are approximate). */
function tokens(text: string): number {
  const m = /^([\d.]+)(k|m)?$/i.exec(text.trim());
  if (!m) return 0;
  const scale = m[2]?.toLowerCase() === 'm' ? 1_000_000 : m[2] ? 1000 : 1;
  return Math.round(Number(m[1]) * scale);
}

/** `Tokens: 2.4k sent, 1.2k cache write, 3k cache hit, 178 received. Cost: $0.01 message, $0.05 session.` */
export function parseUsageLine(text: string): { usage: TokenUsage; messageCost: number | null; sessionCost: number | null } | null {
  const m =
    /^Tokens:\s*([\d.]+[kKmM]?) sent(?:,\s*([\d.]+[kKmM]?) cache write)?(?:,\s*([\d.]+[kKmM]?) cache hit)?,\s*([\d.]+[kKmM]?) received\.?(?:\s*Cost:\s*\$([\d.]+) message,\s*\$([\d.]+) session\.?)?/.exec(
      text,
    );
  if (!m) return null;
  const cacheWrite = m[2] ? tokens(m[2]) : 0;
  const usage: TokenUsage = {
    // "sent" counts the prompt with the tokens written to the cache; cache hits are reported beside it.
    input: Math.max(tokens(m[1]!) - cacheWrite, 0),
    output: tokens(m[4]!),
    cacheRead: m[3] ? tokens(m[3]) : 0,
    cacheWrite,
    reasoning: 0,
  };
  return { usage, messageCost: m[5] ? Number(m[5]) : null, sessionCost: m[6] ? Number(m[6]) : null };
}

/**
 * Aider's own reader (utils.split_chat_history_markdown) takes every `#### ` line as user input. Inside an answer
 * the model's own h4 headings look the same; aider always writes its output (`> Tokens: ...`, edit notices) between
 * an answer and the next prompt, so a `#### ` line met while the assistant is still talking is kept as its heading.
 * A slash command or aider's `<blank>` marker is the user's whatever comes before it.
 */
function isUserLine(text: string, current: Channel | null): boolean {
  if (!/^####( |$)/.test(text)) return false;
  if (current !== 'assistant') return true;
  const rest = text.slice(4).trim();
  return rest.startsWith('/') || rest === '<blank>';
}

export function readRunTurns(lines: readonly RunLine[], idPrefix: string): RunFacts {
  const facts: RunFacts = { messages: [], model: null, version: null, gitRepo: null, edited: [], sessionCostUsd: null, blankInputs: 0, usage: null };
  let channel: Channel | null = null;
  let buffer: RunLine[] = [];
  const flush = () => {
    const text = buffer
      .map((l) => l.text)
      .join('\n')
      .trim();
    const first = buffer.find((l) => l.text.trim() !== '');
    if (channel && first && text !== '') {
      const role: MessageRole = channel;
      facts.messages.push({
        id: `${idPrefix}line-${first.line}`,
        role,
        timestamp: null,
        model: role === 'assistant' ? facts.model : null,
        usage: null,
        cost: null,
        parts: [{ type: 'text', text }],
        agentId: null,
        // The line in the history file; the pointer finds it among the run's own rows (its raw view as a session of a store).
        origin: { fileIndex: 0, line: first.line, pointer: `/rows/lines/${first.line}` },
      });
    }
    buffer = [];
  };
  const switchTo = (next: Channel) => {
    if (next !== channel) flush();
    channel = next;
  };
  for (const entry of lines) {
    // aider ends logged lines with two spaces (a Markdown line break).
    const text = entry.text.replace(/\s+$/, '');
    if (isUserLine(text, channel)) {
      switchTo('user');
      const input = text.slice(4).trimStart();
      if (input === '<blank>') {
        facts.blankInputs++;
        continue;
      }
      buffer.push({ text: input, line: entry.line });
    } else if (text === '>' || text.startsWith('> ')) {
      switchTo('tool');
      const out = text.slice(2);
      toolFacts(out, facts);
      buffer.push({ text: out, line: entry.line });
    } else if (text === '') {
      if (channel) buffer.push({ text: '', line: entry.line });
    } else {
      switchTo('assistant');
      buffer.push({ text: entry.text, line: entry.line });
    }
  }
  flush();
  return facts;
}

/** What aider's own output lines say: the model, the version, files edited, tokens and cost of the answer before them. */
function toolFacts(out: string, facts: RunFacts): void {
  const model = /^(?:Main model|Model): (\S+)/.exec(out)?.[1];
  if (model) facts.model = model;
  const version = /^Aider v(\S+)/.exec(out)?.[1];
  if (version) facts.version = version;
  const repo = /^Git repo: (.+)$/.exec(out)?.[1];
  if (repo) facts.gitRepo = repo;
  const edited = /^(?:Applied edit to|Creating empty file) (.+)$/.exec(out)?.[1]?.trim();
  if (edited && !facts.edited.includes(edited)) facts.edited.push(edited);
  const usage = parseUsageLine(out);
  if (!usage) return;
  if (usage.sessionCost !== null) facts.sessionCostUsd = usage.sessionCost;
  facts.usage ??= emptyUsage();
  addUsage(facts.usage, usage.usage);
  const answer = facts.messages.filter((m) => m.role === 'assistant').at(-1);
  if (!answer || answer.usage) return;
  answer.usage = usage.usage;
  if (usage.messageCost !== null) answer.cost = { usd: usage.messageCost, estimated: false };
}
