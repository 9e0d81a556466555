// A Session with every field at its empty default, for code and tests that build one from a few known facts.
import type { Session } from './session.ts';

export function emptySession(key: string, over: Partial<Session> = {}): Session {
  return {
    key,
    id: key.split(':').pop() ?? key,
    format: 'vizier',
    formatVersion: null,
    title: `Session ${key}`,
    project: { path: null, name: null, branch: null, headCommit: null },
    createdAt: null,
    updatedAt: null,
    closedAt: null,
    status: 'closed',
    outcome: null,
    model: null,
    config: [],
    systemPrompt: null,
    toolVersion: null,
    messages: [],
    operations: [],
    todos: [],
    summary: null,
    artifacts: [],
    usage: null,
    cost: null,
    parentKey: null,
    childKeys: [],
    sourceFiles: [],
    warnings: [],
    extra: {},
    ...over,
  };
}
