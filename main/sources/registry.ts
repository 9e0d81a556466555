// Every format reader the app knows, in the order they are asked whether they claim a path.
import { aiAgentReader } from './ai-agent/ai-agent.ts';
import { claudeCodeReader } from './claude-code/claude-code.ts';
import { codexReader } from './codex/codex.ts';
import { geminiReader } from './gemini/gemini.ts';
import { jidoCodeReader } from './jido-code/jido-code.ts';
import { projectHubReader } from './projecthub/projecthub.ts';
import type { SourceReader } from './types.ts';
import { vizierReader } from './vizier/vizier.ts';

export const readers: SourceReader[] = [vizierReader, jidoCodeReader, claudeCodeReader, projectHubReader, aiAgentReader, codexReader, geminiReader];

/** The first reader that claims this absolute path, if any. */
export function findReader(absPath: string): SourceReader | undefined {
  return readers.find((reader) => reader.claims(absPath));
}
