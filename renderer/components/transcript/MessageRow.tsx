// One transcript row: a message (header, markdown text, tool cards, thinking, images, compaction) or a sub-agent heading.
import { memo, type ReactNode } from 'react';
import type { Expansion } from './expansion.ts';
import { summarizeToolInput } from './tool-summary.ts';
import { hasMatch, itemText } from './find.ts';
import { formatCost, formatTimestamp, formatUsage, plural } from '../../format.ts';
import type { AgentRow, Item, MessageRow as MessageRowData } from './transcript.ts';
import { MarkdownText } from './MarkdownText.tsx';
import { Compaction, ImageView, Thinking } from './MessageParts.tsx';
import { RawButton, RawRecordPanel } from './RawRecord.tsx';
import { ToolCard } from './ToolCard.tsx';
import { VaultForkButton } from '../vault/VaultForkButton.tsx';

const ROLE_LABEL = { user: 'User', assistant: 'Assistant', system: 'System', tool: 'Tool' } as const;
const NO_AGENTS: readonly string[] = [];

export interface RowContext {
  expansion: Expansion;
  /** The find query while the find bar is open, else ''. */
  query: string;
  agentsByCall: ReadonlyMap<string, string[]>;
  /** Sub-agent sessions started by a call (from operations whose id is the call's id). */
  childSessionByCall: ReadonlyMap<string, string>;
}

/** The few reader notes worth a word in the transcript: why a reply stopped, API errors, queued prompts. */
function notesOf(annotations: unknown): string[] {
  if (!annotations || typeof annotations !== 'object' || Array.isArray(annotations)) return [];
  const a = annotations as Record<string, unknown>;
  const out: string[] = [];
  if (typeof a.note === 'string') out.push(a.note);
  if (typeof a.stopReason === 'string') out.push(`stopped: ${a.stopReason}`);
  if (a.isApiErrorMessage === true) out.push('API error');
  if (a.queued === true) out.push('queued while the agent was working');
  // Vizier's chat records the tools a turn used as annotations, without results.
  if (Array.isArray(a.tool_calls)) {
    const calls = a.tool_calls.flatMap((c: unknown) => {
      if (!c || typeof c !== 'object') return [];
      const { name, args } = c as { name?: unknown; args?: unknown };
      return typeof name === 'string' ? [[name, summarizeToolInput(args)].filter(Boolean).join(' ')] : [];
    });
    if (calls.length > 0) out.push(`used ${calls.join(', ')}`);
  }
  return out;
}

function ItemView({ item, ctx, current, aside }: { item: Item; ctx: RowContext; current: boolean; aside?: ReactNode }) {
  const q = ctx.query;
  // The current find match may sit in a collapsed block: open the blocks that contain the query.
  const text = current && q !== '' ? itemText(item) : null;
  const force = text !== null && hasMatch(text, q);
  switch (item.kind) {
    case 'text':
      return item.text.trim() ? <MarkdownText text={item.text} query={q} /> : null;
    case 'thinking':
      return <Thinking id={item.id} text={item.text} redacted={item.redacted} expansion={ctx.expansion} query={q} forceOpen={force} />;
    case 'tool':
      return (
        <ToolCard
          item={item}
          expansion={ctx.expansion}
          query={q}
          forceOpen={force}
          agents={ctx.agentsByCall.get(item.id) ?? NO_AGENTS}
          childSessionKey={item.call?.callId ? (ctx.childSessionByCall.get(item.call.callId) ?? null) : null}
        />
      );
    case 'result-ref':
      return <div className="result-ref muted">↳ result of {item.name}, shown with its call above</div>;
    case 'image':
      return <ImageView part={item.part} />;
    case 'compaction':
      return <Compaction id={item.id} part={item.part} expansion={ctx.expansion} query={q} forceOpen={force} aside={aside} />;
  }
}

/** "result of Read", "results of Read, Bash" — the row only carries results shown with their calls. */
function resultsLabel(items: readonly Item[]): string {
  const names = items.flatMap((i) => (i.kind === 'result-ref' ? [i.name] : []));
  return `${names.length === 1 ? 'result' : 'results'} of ${names.join(', ')}, shown with ${names.length === 1 ? 'its call' : 'their calls'} above`;
}

export const MessageRow = memo(function MessageRow(props: {
  row: MessageRowData;
  ctx: RowContext;
  /** Holds the current find match, or is the message a search result opened at: its matching blocks open. */
  current: boolean;
  /** The message a search result opened at, marked until another session opens. */
  target?: boolean;
}) {
  const { row, ctx, current, target = false } = props;
  const m = row.message;
  const onlyCompaction = row.items.length > 0 && row.items.every((i) => i.kind === 'compaction');
  const classes = [
    'message',
    `role-${m.role}`,
    row.secondary && 'secondary',
    row.resultsOnly && 'compact',
    onlyCompaction && 'divider',
    m.agentId && 'nested',
    current && 'find-row',
    target && 'search-target',
  ]
    .filter(Boolean)
    .join(' ');
  const notes = notesOf(m.annotations);
  return (
    <article className={classes} data-testid="message" data-role={m.role} data-agent={m.agentId ?? undefined} data-search-target={target ? 'true' : undefined}>
      {!onlyCompaction && (
        <header className="message-header">
          <span className="role">{ROLE_LABEL[m.role]}</span>
          {m.agentId && <span className="badge agent-badge">agent {m.agentId}</span>}
          {row.secondary && <span className="badge">meta</span>}
          {m.timestamp && (
            <time dateTime={m.timestamp} title={m.timestamp}>
              {formatTimestamp(m.timestamp)}
            </time>
          )}
          {m.model && <span className="muted">{m.model}</span>}
          {m.usage && <span className="muted usage">{formatUsage(m.usage)}</span>}
          {m.cost && <span className="muted cost">{formatCost(m.cost)}</span>}
          {row.resultsOnly && <span className="muted result-ref">↳ {resultsLabel(row.items)}</span>}
          <span className="spacer" />
          <VaultForkButton message={m} />
          <RawButton ownerId={m.id} origin={m.origin} />
        </header>
      )}
      {notes.length > 0 && <div className="message-notes muted">{notes.join(' · ')}</div>}
      {row.items.length === 0 && notes.length === 0 && <p className="muted empty-message">(no content recorded)</p>}
      {!row.resultsOnly &&
        row.items.map((item, i) => (
          <ItemView
            key={item.id}
            item={item}
            ctx={ctx}
            current={current}
            aside={onlyCompaction && i === 0 ? <RawButton ownerId={m.id} origin={m.origin} /> : undefined}
          />
        ))}
      <RawRecordPanel ownerId={m.id} />
    </article>
  );
});

export function AgentHeading({ row }: { row: AgentRow }) {
  return (
    <div className="agent-heading" data-testid="agent-group" data-agent={row.agentId}>
      <span className="agent-title">Sub-agent</span> <span className="mono">{row.agentId}</span>
      {row.label && <span> · {row.label}</span>}
      <span className="muted">
        {' '}
        · {plural(row.messageCount, 'message')}
        {row.spawnedBy ? '' : ' · spawning call not found'}
      </span>
    </div>
  );
}
