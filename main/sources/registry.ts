// Every format reader the app knows, in the order they are asked whether they claim a path.
import { aiAgentReader } from './ai-agent/ai-agent.ts';
import { aiderReader } from './aider/aider.ts';
import { ampReader } from './amp/amp.ts';
import { antigravityReader } from './antigravity/antigravity.ts';
import { claudeCodeReader } from './claude-code/claude-code.ts';
import { clineReader, rooCodeReader } from './cline/cline.ts';
import { codebuffReader } from './codebuff/codebuff.ts';
import { codexReader } from './codex/codex.ts';
import { copilotCliReader } from './copilot-cli/copilot-cli.ts';
import { cursorReader } from './cursor/cursor.ts';
import { devinReader } from './devin/devin.ts';
import { droidReader } from './droid/droid.ts';
import { geminiReader } from './gemini/gemini.ts';
import { gooseReader } from './goose/goose.ts';
import { grokReader } from './grok/grok.ts';
import { hermesReader } from './hermes/hermes.ts';
import { jidoCodeReader } from './jido-code/jido-code.ts';
import { kimiReader } from './kimi/kimi.ts';
import { kiloReader } from './kilo/kilo.ts';
import { openClawReader } from './openclaw/openclaw.ts';
import { openCodeReader } from './opencode/opencode.ts';
import { piReader } from './pi/pi.ts';
import { projectHubReader } from './projecthub/projecthub.ts';
import { qwenCodeReader } from './qwen-code/qwen-code.ts';
import type { SourceReader } from './types.ts';
import { vibeReader } from './vibe/vibe.ts';
import { vizierReader } from './vizier/vizier.ts';

export const readers: SourceReader[] = [
  vizierReader,
  jidoCodeReader,
  claudeCodeReader,
  projectHubReader,
  aiAgentReader,
  codexReader,
  geminiReader,
  openCodeReader,
  kiloReader,
  hermesReader,
  gooseReader,
  devinReader,
  kimiReader,
  piReader,
  openClawReader,
  droidReader,
  copilotCliReader,
  cursorReader,
  qwenCodeReader,
  grokReader,
  ampReader,
  aiderReader,
  codebuffReader,
  clineReader,
  rooCodeReader,
  vibeReader,
  antigravityReader,
];

/** The first reader that claims this absolute path, if any. */
export function findReader(absPath: string): SourceReader | undefined {
  return readers.find((reader) => reader.claims(absPath));
}
