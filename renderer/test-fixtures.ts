// Builders for unit tests: canonical summaries/sessions and a scriptable fake client with event push.
import type { AppEvent, MethodName, OpenedSession } from '../shared/api.ts';
import type { Session, SessionSummary } from '../shared/session.ts';
import { emptySession } from '../shared/empty-session.ts';
import type { TeamStatus } from '../shared/team-api.ts';
import type { AppClient, ConnectionStatus } from './transport/client.ts';

/** A connected member's Team status (its store, machine and account as given). */
export function teamStatus(over: Partial<TeamStatus> = {}): TeamStatus {
  return {
    store: 'postgresql://alice@db/team',
    machine: 'alice-laptop',
    autoPush: false,
    hasToken: true,
    account: 'alice',
    role: 'member',
    error: null,
    lastPush: null,
    served: false,
    ...over,
  };
}

export function summary(over: Partial<SessionSummary> & { key: string }): SessionSummary {
  return {
    id: over.key.split(':').pop() ?? over.key,
    format: 'vizier',
    title: `Session ${over.key}`,
    projectPath: '/work/project',
    projectName: 'project',
    branch: 'main',
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    status: 'closed',
    outcomeStatus: null,
    outcomeSummary: null,
    model: null,
    messageCount: 0,
    toolCallCount: 0,
    totalTokens: null,
    costUsd: null,
    parentKey: null,
    childCount: 0,
    warningCount: 0,
    kept: false,
    sourceGone: false,
    starred: false,
    tags: [],
    hasNote: false,
    primaryPath: `/data/${over.key}.json`,
    size: 100,
    mtimeMs: 0,
    unreadable: null,
    ...over,
  };
}

/** A user message of plain text, as a reader makes it. */
export function textMessage(id: string, text: string): Session['messages'][number] {
  return { id, role: 'user', timestamp: null, model: null, usage: null, cost: null, parts: [{ type: 'text', text }], agentId: null, origin: null };
}

/** A session as getSession answers it: every message loaded unless a test says otherwise. */
export function session(over: Partial<OpenedSession> & { key: string }): OpenedSession {
  const built: Session = emptySession(over.key, {
    title: `Session ${over.key}`,
    project: { path: '/work/project', name: 'project', branch: 'main', headCommit: null },
    ...over,
  });
  return { ...built, messagesTotal: over.messagesTotal ?? built.messages.length };
}

type Impl = { [M in MethodName]?: (input: never) => Promise<unknown> };

export interface FakeClient {
  client: AppClient;
  calls: Array<{ method: MethodName; input: unknown }>;
  emit(event: AppEvent): void;
  setConnection(status: ConnectionStatus): void;
  subscribers(): number;
}

/** Methods without an implementation reject, so a test notices an unexpected call. */
export function fakeClient(impl: Impl): FakeClient {
  const calls: FakeClient['calls'] = [];
  const handlers = new Set<(e: AppEvent) => void>();
  const statusHandlers = new Set<(s: ConnectionStatus) => void>();
  const client = new Proxy({} as AppClient, {
    get(_target, prop: string) {
      if (prop === 'subscribe') {
        return (h: (e: AppEvent) => void) => {
          handlers.add(h);
          return () => handlers.delete(h);
        };
      }
      if (prop === 'bundleDownloadUrl') return () => null;
      if (prop === 'onConnectionChange') {
        return (h: (s: ConnectionStatus) => void) => {
          statusHandlers.add(h);
          return () => statusHandlers.delete(h);
        };
      }
      return (input: unknown) => {
        calls.push({ method: prop as MethodName, input });
        const fn = impl[prop as MethodName] as ((i: unknown) => Promise<unknown>) | undefined;
        return fn ? fn(input) : Promise.reject(new Error(`unexpected call ${prop}`));
      };
    },
  });
  return {
    client,
    calls,
    emit: (event) => handlers.forEach((h) => h(event)),
    setConnection: (status) => statusHandlers.forEach((h) => h(status)),
    subscribers: () => handlers.size,
  };
}
