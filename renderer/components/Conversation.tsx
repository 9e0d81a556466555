// The conversation tab: messages in order; tool calls, results and thinking as collapsible blocks.
import { useState } from 'react';
import type { Message, MessagePart } from '../../shared/session.ts';
import { formatTimestamp, formatUsage, formatValue } from '../format.ts';

const PAGE = 200;

function firstLine(text: string, max = 120): string {
  const line = text.trimStart().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function Part({ part }: { part: MessagePart }) {
  switch (part.type) {
    case 'text':
      return <div className="text">{part.text}</div>;
    case 'thinking':
      return (
        <details className="block thinking">
          <summary>Thinking{part.redacted ? ' (redacted)' : ''}</summary>
          <div className="text">{part.text}</div>
        </details>
      );
    case 'tool_call':
      return (
        <details className="block tool-call">
          <summary>
            Tool call <strong>{part.name}</strong>
            {part.callId && <span className="muted mono"> {part.callId}</span>}
          </summary>
          <pre>{formatValue(part.input)}</pre>
        </details>
      );
    case 'tool_result':
      return (
        <details className={`block tool-result${part.isError ? ' is-error' : ''}`}>
          <summary>
            Tool result{part.isError && <span className="badge error-badge">error</span>}
            <span className="muted"> {firstLine(part.output)}</span>
          </summary>
          <pre>{part.output}</pre>
        </details>
      );
    case 'image':
      return part.data ? (
        <img className="image" alt="Image attached to the message" src={`data:${part.mediaType ?? 'image/png'};base64,${part.data}`} />
      ) : (
        <div className="muted">[image{part.url ? `: ${part.url}` : ''}]</div>
      );
    case 'compaction':
      return (
        <details className="block compaction">
          <summary>
            Context compacted{part.trigger ? ` (${part.trigger})` : ''}
            {part.tokensBefore != null ? ` — ${part.tokensBefore} tokens before` : ''}
          </summary>
          {part.summary && <div className="text">{part.summary}</div>}
        </details>
      );
  }
}

function MessageView({ message }: { message: Message }) {
  return (
    <article className={`message role-${message.role}`} data-testid="message" data-role={message.role}>
      <header className="message-header">
        <span className="role">{message.role}</span>
        {message.agentId && <span className="badge">agent {message.agentId}</span>}
        {message.timestamp && (
          <time dateTime={message.timestamp} title={message.timestamp}>
            {formatTimestamp(message.timestamp)}
          </time>
        )}
        {message.model && <span className="muted">{message.model}</span>}
        {message.usage && <span className="muted usage">{formatUsage(message.usage)}</span>}
        {message.cost && <span className="muted">${message.cost.usd.toFixed(4)}</span>}
      </header>
      {message.parts.map((part, i) => (
        <Part key={i} part={part} />
      ))}
    </article>
  );
}

export function Conversation({ messages }: { messages: Message[] }) {
  const [shown, setShown] = useState(PAGE);
  if (messages.length === 0) return <p className="muted">No messages recorded.</p>;
  return (
    <div className="conversation">
      {messages.slice(0, shown).map((m) => (
        <MessageView key={m.id} message={m} />
      ))}
      {messages.length > shown && (
        <button type="button" className="more" onClick={() => setShown(shown + PAGE)}>
          Show {Math.min(PAGE, messages.length - shown)} more of {messages.length - shown} remaining messages
        </button>
      )}
    </div>
  );
}
