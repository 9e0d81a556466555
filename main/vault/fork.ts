// "Branch from a prior point" (seed 000): a new open vault session holding a session's messages up to one, linked to its origin.
import type { Message, Session } from '../../shared/session.ts';
import { AppError } from '../../shared/result.ts';

/** A message as the seed's chat content: its text, with tool calls and results written out. */
export function chatContent(message: Message): string {
  const out: string[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') out.push(part.text);
    else if (part.type === 'tool_call') out.push(`[tool call] ${part.name} ${JSON.stringify(part.input)}`);
    else if (part.type === 'tool_result') out.push(`[tool result${part.isError ? ', error' : ''}] ${part.output}`);
    else if (part.type === 'compaction') out.push(`[context compacted]${part.summary ? ` ${part.summary}` : ''}`);
    else if (part.type === 'image') out.push('[image]');
  }
  return out.join('\n\n');
}

export async function forkSession(source: Session, throughMessage: number, forksDir: string): Promise<{ id: string; path: string }> {
  if (throughMessage >= source.messages.length) {
    throw new AppError(
      'INVALID_INPUT',
      `The session has ${source.messages.length} messages; cannot fork after message ${throughMessage + 1}.`,
      'throughMessage',
    );
  }
  const temperature = source.model?.parameters.temperature;
  const headSha = source.project.headCommit && /^[0-9a-f]{7,64}$/.test(source.project.headCommit) ? source.project.headCommit : null;
  // Loaded here: the session writer (and its uuid) is for forks alone, not for every command that starts the services.
  const { openSession } = await import('../recorder/open-session.ts');
  const session = await openSession({
    sessionsDir: forksDir,
    repo: { root: source.project.path, current_branch: source.project.branch, head_sha: headSha },
    workflowType: 'fork',
    model: {
      provider: source.model?.provider ?? null,
      name: source.model?.name ?? null,
      temperature: typeof temperature === 'number' && temperature >= 0 && temperature <= 2 ? temperature : null,
    },
    config: {
      forked_from: { value: source.key, provenance: 'session' },
      forked_through_message: { value: throughMessage + 1, provenance: 'session' },
      forked_from_title: { value: source.title, provenance: 'session' },
    },
    autoCheckpoint: false,
  });
  for (const message of source.messages.slice(0, throughMessage + 1)) {
    await session.append({
      role: message.role,
      content: chatContent(message),
      ...(message.timestamp ? { ts: message.timestamp } : {}),
      annotations: { forked_from_message: message.id },
    });
  }
  await session.checkpoint();
  await session.release();
  if (!session.path) throw new AppError('CONFLICT', 'Session logging is off for the vault, so the fork was not written.');
  return { id: session.id, path: session.path };
}
