// Components rendered to HTML (no DOM needed): what the list, detail and empty state show for a given store state.
import { describe, expect, it } from 'vitest';
import { session, summary } from '../test-fixtures.ts';
import { render } from '../test-render.tsx';
import { App } from './App.tsx';
import { Detail } from './Detail.tsx';
import { SessionList } from './SessionList.tsx';
import { SourcesPanel } from './SourcesPanel.tsx';
import { TopBar } from './TopBar.tsx';

const readable = summary({
  key: 'vizier:1',
  title: 'Add login form',
  branch: 'feat/login',
  projectName: 'webapp',
  outcomeStatus: 'accepted',
  updatedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
});
const unreadable = summary({
  key: 'jido-code:2',
  format: 'jido-code',
  title: 'broken.json',
  updatedAt: null,
  unreadable: { code: 'invalid_json', message: 'Unexpected token } at line 4' },
});

describe('SessionList', () => {
  it('shows a row per entry with title, format badge, branch, outcome and relative time', () => {
    const html = render(<SessionList />, { loaded: true, sessions: [readable, unreadable] });
    expect(html).toContain('data-testid="session-list"');
    expect(html).toContain('data-key="vizier:1"');
    expect(html).toContain('Add login form');
    expect(html).toContain('Vizier');
    expect(html).toContain('webapp · feat/login');
    expect(html).toContain('accepted');
    expect(html).toContain('5 min ago');
  });

  it('says nothing of a state the tool does not record ("unknown"), and shows an outcome alone', () => {
    const silent = summary({ key: 'cursor:3', format: 'cursor', title: 'List the files', projectName: 'tmp-repo', status: 'unknown', outcomeStatus: null });
    const judged = summary({ key: 'cursor:4', format: 'cursor', title: 'Fix the build', status: 'unknown', outcomeStatus: 'failed' });
    const closed = summary({ key: 'cursor:5', format: 'cursor', title: 'Done', status: 'closed', outcomeStatus: null });
    const html = render(<SessionList />, { loaded: true, sessions: [silent, judged, closed] });
    expect(html).not.toContain('unknown');
    expect(html).toContain('tmp-repo');
    expect(html).toMatch(/class="status status-failed">failed</);
    expect(html).toMatch(/class="status status-closed">closed</);
  });

  it('marks unreadable rows and shows why', () => {
    const html = render(<SessionList />, { loaded: true, sessions: [readable, unreadable] });
    expect(html).toMatch(/data-key="jido-code:2" data-unreadable="true"/);
    expect(html).not.toMatch(/data-key="vizier:1" data-unreadable/);
    expect(html).toContain('Unexpected token } at line 4');
    expect(html).toContain('JidoCode');
  });

  it('hides rows that do not match the filter', () => {
    const html = render(<SessionList />, { loaded: true, sessions: [readable, unreadable], filter: 'login' });
    expect(html).toContain('Add login form');
    expect(html).not.toContain('broken.json');
  });
});

describe('Detail', () => {
  const full = session({
    key: 'vizier:1',
    title: 'Add login form',
    project: { path: '/src/webapp', name: 'webapp', branch: 'feat/login', headCommit: 'abcdef1234567890' },
    outcome: { status: 'accepted', summary: 'Merged the form', commitSha: '0123456789abcdef' },
    model: { provider: 'anthropic', name: 'claude-x', parameters: { temperature: 0.2 } },
    messages: [
      {
        id: 'm1',
        role: 'user',
        timestamp: '2025-01-01T10:00:00Z',
        model: null,
        usage: null,
        cost: null,
        parts: [{ type: 'text', text: 'Please add a login form' }],
        agentId: null,
        origin: null,
      },
      {
        id: 'm2',
        role: 'assistant',
        timestamp: null,
        model: null,
        usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        cost: null,
        parts: [{ type: 'tool_call', callId: 'c1', name: 'write_file', input: { path: 'login.tsx' } }],
        agentId: null,
        origin: null,
      },
    ],
  });

  it('shows the header facts and the conversation in order', () => {
    const html = render(<Detail />, {
      sessions: [readable],
      open: { key: 'vizier:1', session: full, loading: false, error: null, errorCode: null, unreadable: null, removed: false },
    });
    expect(html).toContain('data-testid="detail-title">Add login form<');
    // The compact header: one line of facts; the rest is on the Info tab.
    expect(html).toMatch(/data-testid="detail-branch"[^>]*>⎇ feat\/login</);
    expect(html).toMatch(/data-testid="detail-outcome"[^>]*>.*accepted.*Merged the form/);
    expect(html).not.toContain('temperature=0.2');
    expect(html).toContain('data-tab="info"');
    expect(html.indexOf('data-role="user"')).toBeLessThan(html.indexOf('data-role="assistant"'));
    expect(html).toContain('write_file');
    expect(html).toContain('in 10 · out 20');
  });

  it('keeps every other fact on the Info tab: head commit, model parameters, outcome in full', () => {
    const html = render(<Detail />, {
      sessions: [readable],
      detailTab: 'info',
      open: { key: 'vizier:1', session: full, loading: false, error: null, errorCode: null, unreadable: null, removed: false },
    });
    expect(html).toContain('data-testid="session-info"');
    expect(html).toContain('temperature=0.2');
    expect(html).toMatch(/accepted.*Merged the form.*0123456789ab/);
  });

  it('shows the unreadable reason and offers only the raw tab', () => {
    const html = render(<Detail />, {
      sessions: [unreadable],
      open: {
        key: 'jido-code:2',
        session: null,
        loading: false,
        error: null,
        errorCode: null,
        unreadable: unreadable.unreadable,
        removed: false,
      },
    });
    expect(html).toMatch(/data-testid="unreadable-reason".*Unexpected token \} at line 4/);
    expect(html).toContain('data-tab="raw"');
    expect(html).not.toContain('data-tab="conversation"');
  });

  it('shows a service error as a sentence, not a stack', () => {
    const html = render(<Detail />, {
      open: { key: 'x:1', session: null, loading: false, error: 'No session x:1', errorCode: 'NOT_FOUND', unreadable: null, removed: false },
    });
    expect(html).toContain('Could not open this session: No session x:1');
  });
});

describe('App', () => {
  it('shows the empty state with add-folder and demo controls when nothing was found', () => {
    const html = render(<App />, { loaded: true, sessions: [], roots: [], rootsLoaded: true });
    expect(html).toContain('data-testid="empty-state"');
    expect(html).toContain('data-testid="add-root-input"');
    expect(html).toContain('data-testid="open-demo"');
  });

  it('shows no empty state while the first list is loading or once sessions exist', () => {
    expect(render(<App />, { loaded: false })).not.toContain('empty-state');
    // At start the list answers before the folders: its sentence about them would change a line under the user.
    expect(render(<App />, { loaded: true, sessions: [], roots: [], rootsLoaded: false })).not.toContain('empty-state');
    expect(render(<App />, { loaded: true, sessions: [readable] })).not.toContain('empty-state');
  });
});

describe('SourcesPanel', () => {
  it('says why a folder holds files that look like sessions but cannot be read', () => {
    const root = {
      id: 'r1',
      path: '/home/dev/Downloads',
      kind: 'user' as const,
      format: null,
      exists: true,
      sessionCount: 2,
      unreadableCount: 3,
      error: null,
      unreadableReasons: [
        { code: 'empty_file' as const, count: 2, example: 'The file is empty.', file: 'a/empty.jsonl', key: 'claude-code:empty' },
        { code: 'unsupported_version' as const, count: 1, example: 'JidoCode version 99 is newer than this app reads.', file: 'jido.json', key: 'jido-code:j' },
      ],
    };
    const html = render(<SourcesPanel showAddForm={false} onToggleAdd={() => undefined} />, { roots: [root] });
    expect(html).toContain('3 unreadable');
    expect(html).toMatch(/2 empty: <bdi>The file is empty\.<\/bdi>/);
    expect(html).toMatch(/1 a version this app does not read: <bdi>JidoCode version 99 is newer than this app reads\.<\/bdi>/);
    // Each kind names one such file ("e.g." when there are more), a button that opens its row.
    expect(html).toMatch(/<button[^>]*data-testid="unreadable-example" title="Open a\/empty.jsonl">e\.g\. <bdi>a\/empty.jsonl<\/bdi><\/button>/);
    expect(html).toMatch(/<button[^>]*data-testid="unreadable-example" title="Open jido.json"><bdi>jido.json<\/bdi><\/button>/);
  });
  it("groups a folder's session count as the rest of the app does, and says one session", () => {
    const root = (id: string, sessionCount: number) => ({
      id,
      path: `/home/dev/${id}`,
      kind: 'user' as const,
      format: null,
      exists: true,
      sessionCount,
      unreadableCount: 0,
      error: null,
      unreadableReasons: [],
    });
    const html = render(<SourcesPanel showAddForm={false} onToggleAdd={() => undefined} />, { roots: [root('big', 12345), root('one', 1)] });
    expect(html).toContain('12,345 sessions');
    expect(html).toContain('1 session<');
    expect(html).not.toContain('12345');
  });
});

describe('TopBar', () => {
  it('counts sessions as the Sources panel does: unreadable files apart, not as sessions', () => {
    const html = render(<TopBar filterRef={{ current: null }} onAddFolder={() => {}} />, {
      sessions: [
        summary({ key: 'vizier:a' }),
        summary({ key: 'vizier:b' }),
        summary({ key: 'vizier:c', unreadable: { code: 'empty_file', message: 'File is empty.' } }),
      ],
    });
    expect(html).toContain('2 sessions · 1 unreadable');
  });
});
