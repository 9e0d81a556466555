// Message text as GitHub-flavoured markdown once the markdown chunk has loaded, and as plain text (find marks included) until then.
import { memo, useEffect, useState, type ReactNode } from 'react';
import { hasMatch } from './find.ts';
import { formatChars } from '../../format.ts';
import { Marked } from './Marked.tsx';
import type * as MarkdownRender from './markdown-render.tsx';

/** Past this size markdown parsing costs more than it gives; the text is shown as written, cut here until asked. */
export const MARKDOWN_LIMIT = 30_000;

type MarkdownModule = typeof MarkdownRender;
let markdown: MarkdownModule | null = null;
let loading: Promise<MarkdownModule> | null = null;

/** Loads the markdown chunk once (a failed load is tried again by the next text shown); every MarkdownText renders with it after. */
export function loadMarkdown(): Promise<MarkdownModule> {
  loading ??= import('./markdown-render.tsx').then(
    (module) => (markdown = module),
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

/** The markdown module once loaded; null (and a load under way) before. */
function useMarkdown(): MarkdownModule | null {
  const [loaded, setLoaded] = useState(markdown);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    // Until it arrives (or if it cannot) the text stays as written.
    loadMarkdown().then(
      (module) => live && setLoaded(module),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
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
  const md = useMarkdown();
  if (text.length > MARKDOWN_LIMIT) return <PlainText text={text} query={query} />;
  if (!md) {
    return (
      <div className="text plain">
        <Marked text={text} query={query} />
      </div>
    );
  }
  return <div className="md">{md.renderMarkdown(text, query)}</div>;
});
