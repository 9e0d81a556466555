// Message text as GitHub-flavoured markdown: highlighted code, external links, raw HTML shown as text, cached per text.
import { memo, useState, type ReactElement, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { hasMatch } from '../../find.ts';
import { formatChars } from '../../format.ts';
import { rehypeMark } from '../../markdown-mark.ts';
import { Marked } from './Marked.tsx';

/** Past this size markdown parsing costs more than it gives; the text is shown as written, cut here until asked. */
export const MARKDOWN_LIMIT = 30_000;
const CACHE_SIZE = 400;

// rehype-highlight builds a highlighter (and recompiles languages) per processor; build it once.
let highlighter: ReturnType<typeof rehypeHighlight> | null = null;
const highlightOnce = () => (highlighter ??= rehypeHighlight({ detect: false }));

function isExternal(href: string | undefined): href is string {
  return typeof href === 'string' && /^(https?:|mailto:)/i.test(href);
}

const components: Components = {
  // Links leave the app: a new browsing context, which Electron hands to the system browser.
  a: ({ href, children, title }) =>
    isExternal(href) ? (
      <a href={href} title={title ?? href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span className="md-link" title={href}>
        {children}
      </span>
    ),
  // Remote images would be blocked by the CSP (and could track); show where they point instead.
  img: ({ src, alt }) =>
    typeof src === 'string' && src.startsWith('data:image/') ? (
      <img className="image" src={src} alt={alt ?? ''} />
    ) : (
      <span className="md-image">[image{alt ? `: ${alt}` : ''}{typeof src === 'string' && src ? ` — ${src}` : ''}]</span>
    ),
};

const cache = new Map<string, ReactElement>();

/** The rendered tree for a text, reused across rows that scroll out and back in. */
export function renderMarkdown(text: string, query: string): ReactElement {
  const key = `${query}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const element = Markdown({
    children: text,
    remarkPlugins: [remarkGfm],
    rehypePlugins: query ? [highlightOnce, [rehypeMark, query]] : [highlightOnce],
    components,
  });
  cache.set(key, element);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return element;
}

function PlainText({ text, query }: { text: string; query: string }) {
  const [all, setAll] = useState(false);
  // A find match further down shows the whole text, or its mark could not be reached.
  const clipped = !all && !(query && hasMatch(text, query));
  const shown = clipped ? text.slice(0, MARKDOWN_LIMIT) : text;
  return (
    <div className="text plain">
      <Marked text={shown} query={query} />
      {text.length > MARKDOWN_LIMIT && (
        <button type="button" className="link-button show-all" onClick={() => setAll(!all)}>
          {clipped ? `Show all (${formatChars(text.length - MARKDOWN_LIMIT)} more)` : 'Show less'}
        </button>
      )}
    </div>
  );
}

export const MarkdownText = memo(function MarkdownText({ text, query = '' }: { text: string; query?: string }): ReactNode {
  if (text.length > MARKDOWN_LIMIT) return <PlainText text={text} query={query} />;
  return <div className="md">{renderMarkdown(text, query)}</div>;
});
