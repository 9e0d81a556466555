// The wrappers Cline-family extensions put around what the user typed (<task>, <feedback>, <answer>, <user_message>) and the <environment_details> they append to every turn; the messages both task files become.
import type { Message, MessagePart } from '../../../shared/session.ts';

const ENVIRONMENT = /<environment_details>[\s\S]*?<\/environment_details>/g;
const WRAPPERS = ['task', 'feedback', 'answer', 'user_message'] as const;
/** The task's folder as the environment details name it: Cline says "Working", Roo Code and Kilo "Workspace". */
const CWD = /Current (?:Working|Workspace) Directory \((.+)\) Files/;

export interface UserText {
  /** What the user wrote, unwrapped. */
  text: string;
  /** The wrapper it came in (`task` for the first prompt), when it had one. */
  wrapper: string | null;
  /** The <environment_details> blocks taken out of the shown text, verbatim. */
  environment: string[];
}

/** Splits the environment details off a user text and unwraps the user's own words. */
export function splitUserText(raw: string): UserText {
  const environment = raw.match(ENVIRONMENT) ?? [];
  let text = raw.replace(ENVIRONMENT, '').trim();
  let wrapper: string | null = null;
  for (const tag of WRAPPERS) {
    const match = new RegExp(`^<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>$`).exec(text);
    if (match) {
      text = match[1]!;
      wrapper = tag;
      break;
    }
  }
  return { text, wrapper, environment };
}

/** The working directory an environment details block or a request text names, if any. */
export function cwdIn(text: string): string | null {
  return CWD.exec(text)?.[1]?.trim() || null;
}

/** A message of a task file (history or UI messages): no ids or per-message usage there; `index` is its place in the file's list. */
export function taskMessage(
  id: string,
  role: Message['role'],
  parts: MessagePart[],
  at: string | null,
  index: number,
  annotations?: Message['annotations'],
): Message {
  const message: Message = {
    id,
    role,
    timestamp: at,
    model: null,
    usage: null,
    cost: null,
    parts,
    agentId: null,
    origin: { fileIndex: 0, line: null, pointer: `/${index}` },
  };
  if (annotations !== undefined) message.annotations = annotations;
  return message;
}
