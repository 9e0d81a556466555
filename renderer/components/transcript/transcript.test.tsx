// The conversation as a reader sees it: markdown, tool cards, thinking, compaction, sub-agents, header totals.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { OpenSession } from '../../store/store.ts';
import { summary } from '../../test-fixtures.ts';
import { count, render } from '../../test-render.tsx';
import { call, msg, result, text, transcriptSession } from '../../test-sessions.ts';
import { Conversation } from './Conversation.tsx';
import { Detail } from '../Detail.tsx';
import { MarkdownText } from './MarkdownText.tsx';
import { renderMarkdown } from './markdown-render.tsx';

const noFind = { open: false, focusSignal: 0, onClose: () => {} };
const opened = (s = transcriptSession()): OpenSession => ({
  key: s.key,
  session: { ...s, messagesTotal: s.messages.length },
  loading: false,
  error: null,
  errorCode: null,
  unreadable: null,
  removed: false,
});

describe('markdown text', () => {
  const prompt = transcriptSession().messages[1]?.parts[0];
  const html = renderToStaticMarkup(renderMarkdown(prompt?.type === 'text' ? prompt.text : '', ''));

  it('renders GFM tables, task lists and emphasis', () => {
    expect(html).toContain('<table>');
    expect(html).toContain('<td>retry once</td>');
    expect(html).toMatch(/<input type="checkbox" disabled="" checked=""\/>/);
    expect(html).toContain('<strong>flaky</strong>');
    expect(html).toContain('<code>src/retry.ts</code>');
  });

  it('shows raw HTML as text and opens links outside the app', () => {
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<a href="https://example.com/issue/7" title="https://example.com/issue/7" target="_blank" rel="noopener noreferrer">');
  });

  it('highlights fenced code and never turns a javascript: link into an anchor', () => {
    const code = renderToStaticMarkup(renderMarkdown('```ts\nconst x = 1;\n```\n[bad](javascript:alert(1))', ''));
    expect(code).toContain('class="hljs-keyword">const</span>');
    expect(code).not.toContain('javascript:');
    expect(code).not.toMatch(/<a [^>]*>bad<\/a>/);
  });

  it('shows a huge text as plain text cut to the first part', () => {
    const huge = `# title\n${'word '.repeat(10_000)}`;
    const html2 = render(<MarkdownText text={huge} />);
    expect(html2).not.toContain('<h1>');
    expect(html2).toContain('Show all (20k chars more)');
  });

  it('marks find matches inside rendered markdown', () => {
    const marked = renderToStaticMarkup(renderMarkdown('Retry **the retry**', 'retry'));
    expect(count(marked, '<mark class="find-hit">')).toBe(2);
  });
});

describe('Conversation', () => {
  const s = transcriptSession();
  const html = render(<Conversation sessionKey="k" messages={s.messages} messagesTotal={s.messages.length} operations={s.operations} find={noFind} />, {
    open: opened(s),
  });

  it('renders one message element per canonical message, in order, with roles', () => {
    expect(count(html, 'data-testid="message"')).toBe(s.messages.length);
    expect(html.indexOf('Fix the')).toBeLessThan(html.indexOf('Let me look at the file'));
  });

  it('shows each call with its result as one card with name, summary and status', () => {
    expect(count(html, 'data-testid="tool-card"')).toBe(6);
    expect(html).toMatch(/data-status="ok".*?<span class="tool-name">Read<\/span><span class="tool-summary mono">\/home\/dev\/src\/app\/src\/retry.ts/);
    expect(html).toMatch(/data-status="error".*?Edit.*?Error: old_string not found in file/);
    expect(html).toMatch(/data-status="pending".*?WebFetch.*?no result/);
    expect(html).toContain('↳ results of Read, Bash, shown with their calls above');
    expect(html).toContain('↳ result of Edit, shown with its call above');
  });

  it('collapses thinking with its size and says when it was redacted', () => {
    expect(html).toMatch(/data-testid="thinking".*?Thinking · 1\.4k chars/);
    expect(html).not.toContain('The retry loop probably uses the wall clock');
    expect(html).toMatch(/data-testid="thinking" data-redacted="true".*?redacted by the provider/);
  });

  it('shows compaction as a divider, images inline and meta messages as secondary', () => {
    expect(html).toMatch(/data-testid="compaction".*?Context compacted · auto · 155k tokens before/);
    expect(html).toContain('Show carried summary');
    expect(html).toContain('src="data:image/png;base64,iVBOR');
    expect(html).toMatch(/class="message role-user secondary"/);
  });

  it('nests the sub-agent under the spawning call and links the card to its session', () => {
    expect(html).toMatch(/Task.*?sub-agent ↓.*?Open the sub-agent session.*?data-testid="agent-group" data-agent="a1b2c3d4e5"/);
    expect(html).toMatch(/data-agent="a1b2c3d4e5".*?Explore · Find other clock uses.*?4 messages/);
  });

  it('shows per-message usage and labels an estimated cost', () => {
    expect(html).toContain('in 1,200 · out 340 · cache read 20k');
    expect(html).toContain('≈ $0.12 (estimated)');
  });

  it('offers the raw record of each message that knows its origin', () => {
    expect(count(html, '>raw</button>')).toBe(s.messages.length);
    const withRecord = render(<Conversation sessionKey="k" messages={s.messages} messagesTotal={s.messages.length} operations={[]} find={noFind} />, {
      open: opened(s),
      rawRecords: { m3: { loading: false, path: '/x.jsonl', text: '{"type":"assistant"}', truncated: false, error: null } },
    });
    expect(withRecord).toMatch(/data-testid="raw-record".*?\/x.jsonl.*?\{&quot;type&quot;:&quot;assistant&quot;\}/);
  });

  it('opens the find bar when asked', () => {
    const found = render(
      <Conversation sessionKey="k" messages={s.messages} messagesTotal={s.messages.length} operations={[]} find={{ ...noFind, open: true }} />,
      { open: opened(s) },
    );
    expect(found).toContain('data-testid="find-bar"');
    expect(found).toContain('data-testid="find-count"');
  });

  it('renders only the first rows of a very long session', () => {
    const many = Array.from({ length: 5000 }, (_, i) => msg(i % 2 ? 'assistant' : 'user', [text(`message number ${i}`)]));
    const long = render(<Conversation sessionKey="k" messages={many} messagesTotal={many.length} operations={[]} find={noFind} />, {});
    expect(count(long, 'data-testid="message"')).toBeLessThan(120);
    expect(long).toContain('message number 0<');
    expect(long).not.toContain('message number 4999<');
  });

  it('describes an image whose data is a placeholder instead of showing a broken one', () => {
    const html2 = render(
      <Conversation
        sessionKey="k"
        messages={[msg('user', [{ type: 'image', mediaType: 'image/png', data: '[trimmed for fixture]', url: null }])]}
        messagesTotal={1}
        operations={[]}
        find={noFind}
      />,
      {},
    );
    expect(html2).toContain('[image whose data is not readable]');
    expect(html2).not.toContain('<img');
  });

  it('shows the reader notes a message carries', () => {
    const html2 = render(
      <Conversation
        sessionKey="k"
        messages={[msg('assistant', [text('partial')], { annotations: { stopReason: 'max_tokens', isApiErrorMessage: true } })]}
        messagesTotal={1}
        operations={[]}
        find={noFind}
      />,
      {},
    );
    expect(html2).toContain('stopped: max_tokens · API error');
    const vizier = render(
      <Conversation
        sessionKey="k"
        messages={[msg('assistant', [text('Read it.')], { annotations: { tool_calls: [{ name: 'read_file', args: { path: 'src/a.ts' } }] } })]}
        messagesTotal={1}
        operations={[]}
        find={noFind}
      />,
      {},
    );
    expect(vizier).toContain('used read_file src/a.ts');
  });

  it('shows results of absent calls as their own card', () => {
    const orphan = render(
      <Conversation
        sessionKey="k"
        messages={[msg('tool', [result('gone', 'stray output', true)]), msg('assistant', [call('x', 'Read', {})])]}
        messagesTotal={2}
        operations={[]}
        find={noFind}
      />,
      {},
    );
    expect(orphan).toMatch(/data-status="error".*?Tool result.*?stray output/);
  });
});

describe('Detail header', () => {
  it('shows session totals, the warning badge, format extras and the sub-agent list', () => {
    const s = transcriptSession();
    const child = summary({
      key: 'claude-code:rich/agent-a1b2c3d4e5',
      format: 'claude-code',
      title: 'Find other clock uses',
      messageCount: 4,
      toolCallCount: 1,
      parentKey: s.key,
    });
    const html = render(<Detail />, { open: opened(s), sessions: [], related: { [child.key]: child } });
    // One line in the header: the tokens in all (the split in its tooltip) and the cost.
    expect(html).toMatch(/data-testid="usage-totals" title="in 5,400 · out 1,200 · cache read 80k[^"]*">.*?tokens.*?≈ \$0.43 \(estimated\)/);
    expect(html).toMatch(/data-testid="warning-badge"[^>]*>⚠ 1</);
    expect(html).toMatch(/data-testid="subagents".*?Sub-agents.*?Find other clock uses.*?4 messages · 1 tool call</);
    // The format's extras are on the Info tab.
    expect(html).not.toMatch(/permissionMode/);
    expect(render(<Detail />, { open: opened(s), sessions: [], detailTab: 'info', related: { [child.key]: child } })).toMatch(/permissionMode.*?plan/);
  });

  it('counts reasoning tokens in the header, as the list row and the total with sub-agents do', () => {
    const s = { ...transcriptSession(), usage: { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0, reasoning: 300 }, childKeys: [] };
    const html = render(<Detail />, { open: opened(s), sessions: [] });
    expect(html).toMatch(/data-testid="usage-totals" title="in 1,000 · out 200 · reasoning 300"><span>1,500 tokens<\/span>/);
  });

  it('says once that neither a session nor its sub-agents recorded tokens, rather than a row of dashes', () => {
    const s = { ...transcriptSession(), usage: null, cost: null, messages: [msg('user', [text('hi')])], childKeys: ['claude-code:quiet/agent-1'] };
    const child = summary({
      key: 'claude-code:quiet/agent-1',
      format: 'claude-code',
      title: 'A quiet helper',
      totalTokens: null,
      costUsd: null,
      parentKey: s.key,
    });
    const html = render(<Detail />, { open: opened(s), sessions: [], related: { [child.key]: child } });
    expect(html).toMatch(/data-testid="usage-with-subagents"><span class="muted"> · with sub-agents: none recorded either<\/span><\/span>/);
  });

  it('tells a sub-agent the library does not have from one still being looked up, in the total with sub-agents', () => {
    const s = { ...transcriptSession(), childKeys: ['claude-code:t/agent-gone', 'claude-code:t/agent-coming'] };
    const html = render(<Detail />, { open: opened(s), sessions: [], related: {}, relatedNotFound: { 'claude-code:t/agent-gone': true } });
    // None counted: the session's own figures, then what is missing (not the same figures again "with sub-agents").
    expect(html).toMatch(/data-testid="usage-with-subagents"[^>]*> · 1 sub-agent not in the library, 1 sub-agent not counted yet<\/span>/);
    expect(html).not.toContain('with sub-agents');
    const settled = render(<Detail />, {
      open: opened(s),
      sessions: [],
      related: {},
      relatedNotFound: { 'claude-code:t/agent-gone': true, 'claude-code:t/agent-coming': true },
    });
    expect(settled).toMatch(/data-testid="usage-with-subagents"[^>]*> · 2 sub-agents not in the library<\/span>/);
    // One counted: the total with it, and the rest named as missing.
    const child = summary({ key: 'claude-code:t/agent-coming', format: 'claude-code', title: 'Helper', totalTokens: 500, costUsd: 0.5, parentKey: s.key });
    const partly = render(<Detail />, {
      open: opened(s),
      sessions: [],
      related: { [child.key]: child },
      relatedNotFound: { 'claude-code:t/agent-gone': true },
    });
    expect(partly).toMatch(/ · with sub-agents <\/span>87k tokens · ≈ \$0\.93 \(estimated\)<span class="muted"> \(at least: 1 sub-agent not in the library\)/);
    expect(settled).not.toContain('not counted yet');
    // Their rows say so and offer nothing to open; while one is looked up it stays a button.
    expect(settled).not.toContain('data-testid="subagent"');
    expect(settled).toMatch(/data-testid="subagent-missing" data-key="claude-code:t\/agent-gone">.*?not in the library: its file is gone or was never written/);
    expect(html).toMatch(/<button[^>]*data-testid="subagent" data-key="claude-code:t\/agent-coming"/);
  });

  it('says once that no usage was recorded (no dash for the cost) and a sub-agent session links back to its parent', () => {
    const s = { ...transcriptSession(), usage: null, cost: null, messages: [msg('user', [text('hi')])], parentKey: 'claude-code:parent', childKeys: [] };
    const parent = summary({ key: 'claude-code:parent', format: 'claude-code', title: 'The parent task' });
    const html = render(<Detail />, { open: opened(s), sessions: [parent] });
    expect(html).toMatch(/data-testid="usage-totals"[^>]*><span>no tokens recorded<\/span><\/span>/);
    expect(html).toContain('← Sub-agent of The parent task');
    expect(html).not.toContain('data-testid="subagents"');
  });

  it('links a forked session to the session it was forked from once that is in the library, and names it plainly when not', () => {
    const s = { ...transcriptSession(), extra: { forkedFrom: 'codex:origin' } };
    const origin = summary({ key: 'codex:origin', format: 'codex', title: 'The first attempt' });
    const linked = render(<Detail />, { open: opened(s), sessions: [origin] });
    expect(linked).toMatch(/<button[^>]*data-testid="fork-link"[^>]*>← Forked from The first attempt<\/button>/);
    const gone = render(<Detail />, { open: opened(s), sessions: [] });
    expect(gone).not.toContain('data-testid="fork-link"');
    expect(gone).toContain('Forked from codex:origin (not in the library)');
  });
});
