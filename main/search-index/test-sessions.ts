// Builds small canonical sessions for the index's tests, with only the fields a test cares about set.
import type { Message, Session } from '../../shared/session.ts';
import { toSummary } from '../../shared/summarize.ts';
import { emptySession } from '../../shared/empty-session.ts';
import type { SummaryResponse } from '../workers/read-protocol.ts';
import { extractIndexText, type IndexText } from './index-text.ts';

export function textMessage(role: Message['role'], text: string, extra: Message['parts'] = []): Message {
  return {
    id: `m-${Math.random()}`,
    role,
    timestamp: null,
    model: null,
    usage: null,
    cost: null,
    parts: [{ type: 'text', text }, ...extra],
    agentId: null,
    origin: null,
  };
}

export function makeSession(id: string, over: Partial<Session> = {}): Session {
  return emptySession(`vizier:${id}`, {
    id,
    title: `Session ${id}`,
    project: { path: `/home/dev/${id}`, name: id, branch: 'main', headCommit: null },
    createdAt: '2026-01-02T09:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    model: { provider: 'anthropic', name: 'claude-sonnet-4-5', parameters: {} },
    sourceFiles: [{ path: `/roots/${id}.json`, size: 100, mtimeMs: 1, role: 'primary' }],
    ...over,
  });
}

/** What the scan worker posts back for a session: its summary and its index text. */
export function readResult(session: Session): { result: SummaryResponse; text: IndexText } {
  return { result: { id: 0, ok: true, summary: toSummary(session), companions: [] }, text: extractIndexText(session) };
}
