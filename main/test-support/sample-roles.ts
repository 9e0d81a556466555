// What each format named in samples/manifest.json is to the readers: a session file of which reader (shared by the conformance and damage tests).

/** Manifest formats that are session files of a reader, and the reader's format. */
export const SAMPLE_SESSION_FORMATS: Record<string, string> = {
  'claude-code transcript': 'claude-code',
  'codex rollout': 'codex',
  'ai-agent v2 snapshot (.json.gz)': 'ai-agent',
  'ai-agent v2 snapshot edge case': 'ai-agent',
  'ai-agent v3 ledger': 'ai-agent',
  'projecthub vault session markdown': 'projecthub',
  'vizier (vizier.session.v1)': 'vizier',
  'vizier (design-doc MVP schema)': 'vizier',
  'jido-code session (version 1)': 'jido-code',
  'gemini chat JSON': 'gemini',
  'gemini chat JSONL (0.40+)': 'gemini',
  'gemini chat JSON (legacy)': 'gemini',
  // Agents added by issue #22: each reader's engineer adds its manifest formats under its own line.
  // opencode
  'opencode SQLite database (opencode.db)': 'opencode',
  'opencode SQLite database (ai-viewer test schema)': 'opencode',
  'opencode storage session JSON': 'opencode',
  // copilot-cli
  'copilot-cli events.jsonl': 'copilot-cli',
  'copilot-cli legacy flat session JSONL': 'copilot-cli',
  // cursor
  'cursor agent transcript JSONL': 'cursor',
  'cursor agent transcript JSONL (sub-agent)': 'cursor',
  // qwen-code
  'qwen-code chat JSONL': 'qwen-code',
  // kimi
  'kimi-cli context.jsonl': 'kimi',
  'kimi-code wire.jsonl': 'kimi',
  // pi
  'pi session JSONL': 'pi',
  // openclaw
  'openclaw session JSONL': 'openclaw',
  // grok
  'grok summary.json': 'grok',
  'grok summary.json (sub-agent session)': 'grok',
  // droid
  'droid session JSONL': 'droid',
  'droid stream-json log': 'droid',
  // hermes
  'hermes state.db (SQLite)': 'hermes',
  'hermes legacy session JSON': 'hermes',
  // goose
  'goose sessions.db (SQLite)': 'goose',
  'goose sessions.db (SQLite, minimal older schema)': 'goose',
  // amp
  'amp thread JSON': 'amp',
  // aider
  'aider chat history (Markdown)': 'aider',
  // codebuff
  'codebuff chat-messages.json': 'codebuff',
  // cline, roo-code
  'cline api_conversation_history.json': 'cline',
  'roo-code api_conversation_history.json': 'roo-code',
  // vibe
  'vibe messages.jsonl': 'vibe',
  // kilo
  'kilo.db (SQLite, usage-only subset)': 'kilo',
  'kilo storage session JSON (OpenCode layout)': 'kilo',
  // devin
  'devin cli sessions.db (SQLite)': 'devin',
  // antigravity
  'antigravity-cli transcript JSONL': 'antigravity',
};
