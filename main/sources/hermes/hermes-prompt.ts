// Text Hermes injects into user turns: a loaded skill's preamble, and the summary that replaces compressed context.
const SKILL_PREFIX = '[SYSTEM: The user has invoked the "';
const SKILL_INSTRUCTION = 'The user has provided the following instruction alongside the skill invocation: ';
const COMPACTION = /^\[CONTEXT COMPACTION [-–] REFERENCE ONLY\]/;

/** True when a user turn is the summary Hermes puts in place of the context it compressed. */
export function isCompactionSummary(text: string): boolean {
  return COMPACTION.test(text.trimStart());
}

/**
 * What the user typed in a turn that starts with a skill's preamble: the instruction given with the skill, else
 * `[Skill: <name>]`; any other text as it is. Used for titles; the message keeps the whole text.
 */
export function userInstruction(text: string): string {
  if (!text.startsWith(SKILL_PREFIX)) return text;
  const at = text.indexOf(SKILL_INSTRUCTION);
  if (at >= 0) {
    const instruction = text
      .slice(at + SKILL_INSTRUCTION.length)
      .split('\n\n[Runtime note:')[0]!
      .trim();
    if (instruction) return instruction;
  }
  const end = text.indexOf('"', SKILL_PREFIX.length);
  return end > SKILL_PREFIX.length ? `[Skill: ${text.slice(SKILL_PREFIX.length, end)}]` : text;
}
