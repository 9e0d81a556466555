// One tool call and its result as a single collapsible card: name, argument summary, status; arguments and output inside.
import { memo } from 'react';
import { useExpanded, type Expansion } from './expansion.ts';
import { useAppStore } from '../../store/store-context.ts';
import { clipOutput, prettyArguments, summarizeToolInput } from './tool-summary.ts';
import type { ToolItem } from './transcript.ts';
import { Marked } from './Marked.tsx';

export type ToolStatus = 'ok' | 'error' | 'pending';

export function toolStatus(item: ToolItem): ToolStatus {
  if (!item.result) return 'pending';
  return item.result.isError ? 'error' : 'ok';
}

const STATUS_LABEL: Record<ToolStatus, string> = { ok: 'ok', error: 'error', pending: 'no result' };

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

function Output({ id, text, query, expansion, forceAll }: { id: string; text: string; query: string; expansion: Expansion; forceAll: boolean }) {
  const [all, toggleAll] = useExpanded(expansion, `${id}:all`);
  const clipped = clipOutput(text);
  const cut = clipped.hiddenChars > 0 && !all && !forceAll;
  if (!text) return <p className="muted tool-empty">(empty output)</p>;
  return (
    <>
      <pre className="tool-output">
        <Marked text={cut ? clipped.text : text} query={query} />
      </pre>
      {clipped.hiddenChars > 0 && !forceAll && (
        <button type="button" className="link-button show-all" onClick={toggleAll}>
          {all ? 'Show less' : `Show all (${clipped.hiddenLines > 0 ? `${clipped.hiddenLines} more lines` : `${clipped.hiddenChars} more characters`})`}
        </button>
      )}
    </>
  );
}

export const ToolCard = memo(function ToolCard(props: {
  item: ToolItem;
  expansion: Expansion;
  query: string;
  /** Find put its current match inside this card: open it and show the whole output. */
  forceOpen: boolean;
  agents: readonly string[];
  childSessionKey: string | null;
}) {
  const { item, expansion, query, forceOpen, agents, childSessionKey } = props;
  const openSession = useAppStore((s) => s.openSession);
  const [userOpen, toggle] = useExpanded(expansion, item.id);
  const open = userOpen || forceOpen;
  const status = toolStatus(item);
  const name = item.call?.name ?? 'Tool result';
  const summary = item.call ? summarizeToolInput(item.call.input) : firstLine(item.result?.output ?? '');
  const callId = item.call?.callId ?? item.result?.callId ?? null;
  return (
    <div className={`tool-card tool-${status}${open ? ' open' : ''}`} data-testid="tool-card" data-status={status}>
      <button type="button" className="tool-head" aria-expanded={open} onClick={toggle} title={callId ?? undefined}>
        <span className="chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span className="tool-name">{name}</span>
        {summary && (
          <span className="tool-summary mono">
            <Marked text={summary} query={query} />
          </span>
        )}
        {agents.length > 0 && <span className="badge agent-badge">{agents.length === 1 ? 'sub-agent' : `${agents.length} sub-agents`} ↓</span>}
        <span className={`tool-status tool-status-${status}`}>{STATUS_LABEL[status]}</span>
      </button>
      {childSessionKey && (
        <button type="button" className="link-button tool-child" onClick={() => void openSession(childSessionKey)}>
          ↳ Open the sub-agent session
        </button>
      )}
      {!open && status === 'error' && item.result && <div className="tool-error-line mono">{firstLine(item.result.output)}</div>}
      {open && (
        <div className="tool-body">
          {item.call && (
            <>
              <div className="tool-label">Arguments</div>
              <pre className="tool-args">
                <Marked text={prettyArguments(item.call.input)} query={query} />
              </pre>
            </>
          )}
          {!item.call && <p className="muted tool-empty">The call for this result was not recorded.</p>}
          <div className="tool-label">{status === 'error' ? 'Output (error)' : 'Output'}</div>
          {item.result ? (
            <Output id={item.id} text={item.result.output} query={query} expansion={expansion} forceAll={forceOpen} />
          ) : (
            <p className="muted tool-empty">No result was recorded for this call.</p>
          )}
        </div>
      )}
    </div>
  );
});
