// Every session format the app knows, with its display name: one list the contract, the renderer and the readers share (zod-free).

/** Format ids, in the order the UI lists them: the agents' own tools first, the vault's own store last. */
export const SOURCE_FORMATS = [
  'claude-code',
  'codex',
  'gemini',
  'opencode',
  'copilot-cli',
  'cursor',
  'qwen-code',
  'kimi',
  'pi',
  'openclaw',
  'grok',
  'droid',
  'hermes',
  'goose',
  'amp',
  'aider',
  'codebuff',
  'vibe',
  'kilo',
  'cline',
  'roo-code',
  'devin',
  'antigravity',
  'ai-agent',
  'vizier',
  'jido-code',
  'projecthub',
  'vault',
] as const;

export type SourceFormatId = (typeof SOURCE_FORMATS)[number];

/** The name people know each tool by. */
export const FORMAT_LABELS: Record<SourceFormatId, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  opencode: 'OpenCode',
  'copilot-cli': 'Copilot CLI',
  cursor: 'Cursor',
  'qwen-code': 'Qwen Code',
  kimi: 'Kimi',
  pi: 'Pi',
  openclaw: 'OpenClaw',
  grok: 'Grok CLI',
  droid: 'Droid',
  hermes: 'Hermes',
  goose: 'Goose',
  amp: 'Amp',
  aider: 'Aider',
  codebuff: 'Codebuff',
  vibe: 'Mistral Vibe',
  kilo: 'Kilo',
  cline: 'Cline',
  'roo-code': 'Roo Code',
  devin: 'Devin',
  antigravity: 'Antigravity',
  'ai-agent': 'ai-agent',
  vizier: 'Vizier',
  'jido-code': 'JidoCode',
  projecthub: 'ProjectHub',
  vault: 'Vault',
};

export function isSourceFormat(value: unknown): value is SourceFormatId {
  return typeof value === 'string' && (SOURCE_FORMATS as readonly string[]).includes(value);
}

/** What a reader can give for its format: the Sources panel and the README say so per agent. */
export interface ReaderCapabilities {
  /** Token counts per message or turn. */
  tokens: boolean;
  /** A cost the tool itself recorded (otherwise the app estimates one from tokens and prices). */
  recordedCost: boolean;
  /** Sub-agent sessions linked to their parent. */
  subAgents: boolean;
  /** Tool calls paired with their results. */
  toolResults: boolean;
  /** The model's reasoning ("thinking") text. */
  thinking: boolean;
  /** Images attached to messages. */
  images: boolean;
}
