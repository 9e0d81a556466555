// Where Antigravity keeps a conversation: the CLI's <.gemini>/antigravity-cli/brain/<id>/.system_generated/logs/transcript.jsonl, and brain artifacts.
import { basename, dirname, join } from 'node:path';

const CONVERSATION_ID = /^[A-Za-z0-9_-]+$/;

/** agy's step log, and the same steps unclipped (written beside it, or alone). */
const TRANSCRIPTS = new Set(['transcript.jsonl', 'transcript_full.jsonl']);

/** The CLI conversation folder (`brain/<id>`) of a transcript path, or null when the path is not one. */
export function conversationDirOf(absPath: string): string | null {
  if (!TRANSCRIPTS.has(basename(absPath))) return null;
  const logs = dirname(absPath);
  const generated = dirname(logs);
  const conversation = dirname(generated);
  const brain = dirname(conversation);
  const ok =
    basename(logs) === 'logs' && basename(generated) === '.system_generated' && CONVERSATION_ID.test(basename(conversation)) && basename(brain) === 'brain';
  return ok ? conversation : null;
}

/**
 * The step log of one CLI conversation, or its unclipped transcript_full.jsonl: while both exist the conversation is
 * listed once, from transcript.jsonl (which reads the full one in; catalogue/walk-rules.ts).
 */
export function claimsAntigravity(absPath: string): boolean {
  return conversationDirOf(absPath) !== null;
}

/** Other generated logs of a claimed conversation belong to it. */
export function antigravityCompanion(absPath: string): boolean {
  return !claimsAntigravity(absPath) && conversationDirOf(join(dirname(absPath), 'transcript.jsonl')) !== null;
}

/**
 * The IDE's brain folder for the same conversation id: `<.gemini>/antigravity/brain/<id>` beside the CLI's
 * `<.gemini>/antigravity-cli/brain/<id>` (older agy builds and the IDE wrote their Markdown artifacts there).
 * Null when the CLI folder does not sit in `antigravity-cli/brain/`.
 */
export function ideBrainDirOf(conversationDir: string): { dir: string; gemini: string } | null {
  const brain = dirname(conversationDir);
  const cli = dirname(brain);
  if (basename(cli) !== 'antigravity-cli') return null;
  const gemini = dirname(cli);
  return { dir: join(gemini, 'antigravity', 'brain', basename(conversationDir)), gemini };
}

/** Both Antigravity products keep their data under ~/.gemini; the CLI's conversations are in antigravity-cli/brain. */
export function antigravityRoots(_env: NodeJS.ProcessEnv, home: string): string[] {
  return [join(home, '.gemini', 'antigravity-cli', 'brain')];
}
