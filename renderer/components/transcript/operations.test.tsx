// The operations tab: a tree with depth and status per node, a totals row, and Vizier's VCS view kept.
import { describe, expect, it } from 'vitest';
import { count, render } from '../../test-render.tsx';
import { op, opTreeSession } from '../../test-sessions.ts';
import { inlineDetail } from './OperationNode.tsx';
import { Operations } from './Operations.tsx';

describe('Operations', () => {
  const html = render(<Operations sessionKey="k" operations={opTreeSession().operations} />);

  it('renders every node with its depth and status tone, nested under its parent', () => {
    expect(count(html, 'data-testid="op-node"')).toBe(7);
    expect(html).toMatch(/data-depth="0" data-status="ok".*?Turn 1/);
    expect(html).toMatch(/data-depth="2" data-status="failed".*?fetch_url/);
    expect(html.indexOf('Turn 1')).toBeLessThan(html.indexOf('agent: web-research'));
    expect(html.indexOf('agent: web-research')).toBeLessThan(html.indexOf('Turn 2'));
  });

  it('shows latency, tokens, cost and a link to the sub-agent session on the nodes', () => {
    expect(html).toMatch(/anthropic\/claude-sonnet.*?3\.2 s.*?in 500 · out 120.*?≈ \$0.0030 \(estimated\)/);
    expect(html).toContain('Open sub-agent session ai-agent:child-1');
  });

  it('has a totals row with tokens, cost, tool count, failures and duration', () => {
    expect(html).toMatch(/data-testid="op-totals".*?7 operations.*?2 tool calls.*?2 failed.*?in 900 · out 300.*?≈ \$0.0050 \(estimated\).*?50 s/);
  });

  it('shows small details inline and keeps Vizier VCS letters', () => {
    expect(html).toMatch(/query=retry.*?hits=3/);
    const vizier = render(
      <Operations
        sessionKey="v"
        operations={[
          op('g1', {
            type: 'gate_accept',
            name: null,
            status: 'accepted',
            vcs: { staged: { A: ['a.ts'], M: ['b.ts'], D: [], R: [{ from: 'c.ts', to: 'd.ts' }] }, appliedSha: 'abcdef1234567890', restoredSha: null },
          }),
          op('t1', { type: 'test_run', detail: { command: 'npm test', passed: 41, failed: 0 } }),
        ]}
      />,
    );
    // One of each reads in the singular.
    const one = render(<Operations sessionKey="o" operations={[op('c1', { type: 'tool_call', name: 'Bash' })]} />);
    expect(one).toMatch(/data-testid="op-totals"><span>1 operation<\/span><span>1 tool call<\/span>/);
    expect(vizier).toMatch(/vcs-A">A<\/span> <span class="mono">a.ts/);
    expect(vizier).toMatch(/vcs-R">R<\/span> <span class="mono">c.ts → d.ts/);
    expect(vizier).toContain('abcdef123456');
    expect(vizier).toMatch(/command=npm test.*?passed=41.*?failed=0/);
    expect(vizier).not.toContain('op-toolbar');
  });
});

describe('inlineDetail', () => {
  it('inlines short strings and small flat objects only', () => {
    expect(inlineDetail('passed 12/12')).toBe('passed 12/12');
    expect(inlineDetail('two\nlines')).toBeNull();
    expect(inlineDetail({ a: 1, b: 'x' })).toEqual([
      ['a', '1'],
      ['b', 'x'],
    ]);
    expect(inlineDetail({ nested: { a: 1 } })).toBeNull();
    expect(inlineDetail({ long: 'y'.repeat(300) })).toBeNull();
  });
});
