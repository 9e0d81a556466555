// The markdown stack (react-markdown, GFM, highlight.js), in a chunk of its own that MarkdownText loads after the first paint.
import type { ReactElement } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { rehypeMark } from './markdown-mark.ts';

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
      <span className="md-image">
        [image{alt ? `: ${alt}` : ''}
        {typeof src === 'string' && src ? ` — ${src}` : ''}]
      </span>
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
