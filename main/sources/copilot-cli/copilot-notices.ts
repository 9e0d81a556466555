// Copilot CLI notices and session events shown in the transcript: info, warnings, errors, aborts, truncation, compaction, outcomes.
import { warnMissingContent } from '../missing-content.ts';
import { isRecord } from '../coerce.ts';
import { addMessage, addNotice, type CopilotState, type EventCtx } from './copilot-state.ts';

/** session.info / session.warning / session.error: what the CLI printed, with its kind. */
export function onNotice(state: CopilotState, ev: EventCtx, kind: 'info' | 'warning' | 'error'): void {
  const { data } = ev;
  const type = data.string(kind === 'info' ? 'infoType' : kind === 'warning' ? 'warningType' : 'errorType');
  const message = data.string('message') ?? '';
  const status = data.number('statusCode');
  if (kind === 'info' && type === 'folder_trust') {
    const folder = /^Folder (.+) has been added to trusted folders\.?$/.exec(message)?.[1];
    if (folder) state.trustedFolder ??= folder;
  }
  const text = message || `${kind}${type ? ` (${type})` : ''}`;
  addNotice(state, ev, kind, status !== null ? `${text} (status ${status})` : text, type ? { [`${kind}Type`]: type } : {});
}

export function onAbort(state: CopilotState, ev: EventCtx): void {
  const reason = ev.data.string('reason');
  state.openTurns = 0;
  addNotice(state, ev, 'abort', reason ? `Aborted (${reason})` : 'Aborted');
}

/** session.truncation: older messages dropped to fit the context window. */
export function onTruncation(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  const by = data.string('performedBy') ?? data.string('reason');
  const before = data.number('preTruncationTokensInMessages');
  addMessage(state, ev, 'system', [{ type: 'compaction', summary: null, trigger: by ? `truncation: ${by}` : 'truncation', tokensBefore: before }], {
    annotations: {
      kind: 'truncation',
      messagesRemoved: data.number('messagesRemovedDuringTruncation'),
      tokensRemoved: data.number('tokensRemovedDuringTruncation') ?? data.number('droppedTokens'),
    },
  });
}

/** session.compaction_complete: the conversation summarised into a checkpoint. */
export function onCompaction(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  if (data.raw.success === false) {
    addNotice(state, ev, 'error', `Compaction failed${data.string('error') ? `: ${data.string('error')}` : ''}`);
    return;
  }
  addMessage(
    state,
    ev,
    'system',
    [{ type: 'compaction', summary: data.string('summaryContent'), trigger: data.string('trigger'), tokensBefore: data.number('preCompactionTokens') }],
    {
      annotations: { kind: 'compaction' },
    },
  );
}

/** system.message: the system prompt the CLI sent (kept as the session's prompt too, the first one). */
export function onSystemMessage(state: CopilotState, ev: EventCtx): void {
  const content = ev.data.string('content');
  if (!content) {
    warnMissingContent(state.warnings, 'A Copilot system.message event');
    return;
  }
  state.systemPrompt ??= content;
  addNotice(state, ev, 'meta', content, { role: ev.data.string('role') ?? 'system' });
}

/** system.notification: background agents and shells finishing, messages arriving. */
export function onNotification(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  const kind = isRecord(data.raw.kind) && typeof data.raw.kind.type === 'string' ? data.raw.kind.type : null;
  addNotice(state, ev, 'notification', data.string('content') ?? kind ?? 'notification', kind ? { notification: kind } : {});
}

export function onHandoff(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  const text = [data.string('summary'), data.string('context')].filter(Boolean).join('\n\n');
  addNotice(state, ev, 'handoff', text || `Handed off from ${data.string('sourceType') ?? 'another session'}`);
}

/** session.task_complete: the agent's own verdict on the task, the session's outcome. */
export function onTaskComplete(state: CopilotState, ev: EventCtx): void {
  const { data } = ev;
  const summary = data.string('summary');
  const status = data.string('outcome') ?? (data.raw.success === false ? 'failed' : 'completed');
  state.outcome = { status, summary, commitSha: null };
  addNotice(state, ev, 'task_complete', summary ?? `Task ${status}`);
}
