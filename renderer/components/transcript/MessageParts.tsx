// The quieter parts of a message: thinking (collapsed), images, and the context-compaction divider.
import { useState, type ReactNode } from 'react';
import type { MessagePart } from '../../../shared/session.ts';
import { useExpanded, type Expansion } from './expansion.ts';
import { formatChars, formatCount } from '../../format.ts';
import { Marked } from './Marked.tsx';
import { MarkdownText } from './MarkdownText.tsx';
import { ImageLightbox } from './ImageLightbox.tsx';

type Part<T extends MessagePart['type']> = Extract<MessagePart, { type: T }>;

export function Thinking(props: { id: string; text: string; redacted: boolean; expansion: Expansion; query: string; forceOpen: boolean }) {
  const { id, text, redacted, expansion, query, forceOpen } = props;
  const [userOpen, toggle] = useExpanded(expansion, id);
  if (redacted) {
    return (
      <div className="thinking redacted" data-testid="thinking" data-redacted="true">
        <span className="thinking-head">Thinking · redacted by the provider</span>
      </div>
    );
  }
  const open = userOpen || forceOpen;
  return (
    <div className={`thinking${open ? ' open' : ''}`} data-testid="thinking">
      <button type="button" className="thinking-head" aria-expanded={open} onClick={toggle}>
        <span className="chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        Thinking · {formatChars(text.length)}
      </button>
      {open && (
        <div className="thinking-body text">
          <Marked text={text} query={query} />
        </div>
      )}
    </div>
  );
}

/** Placeholders such as "[trimmed]" would make a broken data: URL; those are described instead. */
const BASE64 = /^[A-Za-z0-9+/=\s]+$/;
const SAFE_IMAGE = /^image\/(png|jpe?g|gif|webp|bmp|avif|svg\+xml)$/i;

/** The data: URL an embedded image can be shown from, or null when the part holds no readable image data. */
export function imageSource(part: Part<'image'>): string | null {
  if (!part.data || !BASE64.test(part.data)) return null;
  const type = part.mediaType && SAFE_IMAGE.test(part.mediaType) ? part.mediaType : 'image/png';
  return `data:${type};base64,${part.data}`;
}

/** An image of a message: embedded ones open full size on click; remote ones are a link (never fetched into the app). */
export function ImageView({ part, caption = 'Image attached to the message' }: { part: Part<'image'>; caption?: string }) {
  const [big, setBig] = useState(false);
  const src = imageSource(part);
  if (src) {
    return (
      <>
        <button type="button" className="image-button" data-testid="image" title="Show at full size" onClick={() => setBig(true)}>
          <img className="image" alt={caption} src={src} />
        </button>
        {big && <ImageLightbox src={src} caption={caption} onClose={() => setBig(false)} />}
      </>
    );
  }
  if (part.url && /^https?:/i.test(part.url)) {
    // Remote images are not fetched into the app (CSP); the link opens them in the browser.
    return (
      <div className="image-ref">
        Image:{' '}
        <a href={part.url} target="_blank" rel="noopener noreferrer">
          {part.url}
        </a>
      </div>
    );
  }
  const why = part.data ? ' whose data is not readable' : part.url ? `: ${part.url}` : ' not stored in the session';
  return <div className="image-ref muted">[image{why}]</div>;
}

export function Compaction(props: {
  id: string;
  part: Part<'compaction'>;
  expansion: Expansion;
  query: string;
  forceOpen: boolean;
  /** Actions of a message that is only this divider (its raw record). */
  aside?: ReactNode;
}) {
  const { id, part, expansion, query, forceOpen, aside } = props;
  const [userOpen, toggle] = useExpanded(expansion, id);
  const open = userOpen || forceOpen;
  const facts = ['Context compacted'];
  if (part.trigger) facts.push(part.trigger);
  if (part.tokensBefore != null) facts.push(`${formatCount(part.tokensBefore)} tokens before`);
  return (
    <div className="compaction" data-testid="compaction">
      <div className="compaction-line">
        <span className="compaction-label">{facts.join(' · ')}</span>
        {part.summary && (
          <button type="button" className="link-button" aria-expanded={open} onClick={toggle}>
            {open ? 'Hide summary' : 'Show carried summary'}
          </button>
        )}
        {aside}
      </div>
      {open && part.summary && (
        <div className="compaction-summary">
          <MarkdownText text={part.summary} query={query} />
        </div>
      )}
    </div>
  );
}
