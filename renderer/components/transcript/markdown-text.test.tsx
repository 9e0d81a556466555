// MarkdownText before and after its chunk loads: the text at once as written (find marks included), then rendered markdown.
import { describe, expect, it } from 'vitest';
import { count, render } from '../../test-render.tsx';
import { loadMarkdown, MarkdownText } from './MarkdownText.tsx';

describe('MarkdownText', () => {
  const text = 'Retry **the retry** in `src/retry.ts`';

  it('shows the text as written, with find marks, until the markdown chunk has loaded', () => {
    const html = render(<MarkdownText text={text} query="retry" />);
    expect(html).toBe(
      '<div class="text plain"><mark class="find-hit">Retry</mark> **the <mark class="find-hit">retry</mark>** in `src/<mark class="find-hit">retry</mark>.ts`</div>',
    );
  });

  it('renders markdown once the chunk has loaded, and loads it only once', async () => {
    const first = loadMarkdown();
    expect(loadMarkdown()).toBe(first);
    await first;
    const html = render(<MarkdownText text={text} query="retry" />);
    expect(html).toContain('<div class="md">');
    expect(html).toContain('<strong>the <mark class="find-hit">retry</mark></strong>');
    expect(count(html, '<mark class="find-hit">')).toBe(3);
  });
});
