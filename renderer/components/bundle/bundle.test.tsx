// The sharing dialogs as rendered: findings with masked previews and their ticks, progress, the import report.
import { describe, expect, it } from 'vitest';
import { count, render } from '../../test-render.tsx';
import { BundleShareDialog } from './BundleShareDialog.tsx';
import { BundleImportDialog } from './BundleImport.tsx';
import type { ShareState } from '../../store/store-bundle.ts';

const share: ShareState = {
  keys: ['claude-code:s1'],
  format: 'zip',
  phase: 'review',
  redact: true,
  findings: [
    {
      id: 'f1',
      rule: 'github',
      file: 'sessions/x/source/home/dev/.claude/projects/p/s1.jsonl',
      line: 12,
      preview: 'export GITHUB_TOKEN=ghp_************',
      redacted: true,
    },
    { id: 'f2', rule: 'anthropic', file: 'sessions/x/session.json', line: 40, preview: 'sample sk-a************', redacted: true },
  ],
  kept: ['f2'],
  progress: null,
  result: null,
  error: null,
  exportId: null,
};

describe('BundleShareDialog', () => {
  it('lists each finding with its rule, file:line and masked preview; an unticked one is left unchecked', () => {
    const html = render(<BundleShareDialog />, { share });
    expect(count(html, 'data-testid="bundle-finding"')).toBe(2);
    expect(html).toContain('p/s1.jsonl:12');
    expect(html).toContain('export GITHUB_TOKEN=ghp_************');
    expect(html).toContain('1 of 2 findings will be redacted');
    expect(count(html, 'checked=""')).toBe(3); // zip format, redact on, and the ticked finding
    expect(html).not.toMatch(/data-testid="bundle-format-md"[^>]*disabled=""/);
  });

  it('folds no finding away: a long list says it goes on and is not capped in an inner scroll', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ id: `m${i}`, rule: 'github', file: 'p/s1.jsonl', line: i + 1, preview: 'ghp_****', redacted: true }));
    const html = render(<BundleShareDialog />, { share: { ...share, findings: many, kept: [] } });
    expect(count(html, 'data-testid="bundle-finding"')).toBe(9);
    expect(html).toContain('All 9 findings are listed below, none folded away');
    expect(html).toContain('class="vault-list findings-list"');
    expect(render(<BundleShareDialog />, { share })).not.toContain('bundle-findings-more');
  });

  it('shows progress while exporting and the saved file when done', () => {
    const busy = render(<BundleShareDialog />, { share: { ...share, phase: 'exporting', progress: { done: 512, total: 2048 } } });
    expect(busy).toContain('<progress max="2048" value="512">');
    expect(busy).toContain('Cancel export');
    // Over several sessions the bar follows the sessions (the byte total grows as each is planned), with the bytes read.
    const scanning = render(<BundleShareDialog />, {
      share: { ...share, keys: ['a:1', 'b:2'], phase: 'scanning', progress: { done: 26_419, total: 44_237, sessionsDone: 61, sessionsTotal: 132 } },
    });
    expect(scanning).toMatch(/Scanning every file for secrets… <progress max="132" value="61"><\/progress> 61 of 132 sessions · 25\.8 KB read/);
    // Before the first report: a moving bar, no figures.
    expect(render(<BundleShareDialog />, { share: { ...share, phase: 'exporting', progress: null } })).toMatch(/Exporting… <progress><\/progress>/);
    expect(render(<BundleShareDialog />, { share: { ...share, phase: 'scanning', progress: { done: 0, total: 0 } } })).toMatch(
      /secrets… <progress><\/progress><\/p>/,
    );
    const done = render(<BundleShareDialog />, {
      share: {
        ...share,
        phase: 'done',
        result: { exportId: 'e', path: '/d/exports/e/s.zip', fileName: 's.zip', size: 2048, sessions: 1, files: 2, redacted: 1, kept: 1 },
      },
    });
    expect(done).toContain('Saved s.zip (2.0 KB): 1 session, 1 secret redacted, 1 left as you chose.');
  });

  it('offers Markdown and HTML only for one session', () => {
    const html = render(<BundleShareDialog />, { share: { ...share, keys: ['a:1', 'b:2'] } });
    expect(html).toContain('Share 2 sessions');
    expect(html).toMatch(/data-testid="bundle-format-md"[^>]*disabled=""/);
    expect(html).toMatch(/data-testid="bundle-format-html"[^>]*disabled=""/);
  });
});

describe('BundleImportDialog', () => {
  it('says what came in, what was skipped and what the sender redacted', () => {
    const html = render(<BundleImportDialog />, {
      importing: {
        fileName: 'share.zip',
        phase: 'done',
        sent: 10,
        size: 10,
        asCopy: false,
        error: null,
        preview: null,
        uploadId: null,
        report: {
          imported: [{ key: 'a:1', title: 'Fix the build', copyOf: null }],
          skipped: [{ key: 'b:2', title: 'Old one', reason: 'already in the vault' }],
          files: 3,
          redacted: 4,
          redactionEnabled: true,
        },
      },
    });
    expect(html).toContain('Imported 1 session into the vault.');
    expect(html).toContain('Skipped 1 session already here (nothing was overwritten)');
    expect(html).toContain('The sender redacted 4 secrets before sharing.');
    expect(html).toContain('Import those as copies');
  });

  it("shows what an opened bundle would bring in, conflicts and the sender's findings, with nothing imported yet", () => {
    const html = render(<BundleImportDialog />, {
      importing: {
        fileName: 'team.zip',
        phase: 'preview',
        sent: 10,
        size: 10,
        asCopy: false,
        error: null,
        report: null,
        uploadId: 'u'.repeat(32),
        preview: {
          sessions: [
            { key: 'claude-code:s1', title: 'Fix the build', format: 'claude-code', files: 2, bytes: 2048, conflict: false },
            { key: 'codex:s2', title: 'Old one', format: 'codex', files: 2, bytes: 1024, conflict: true },
          ],
          files: 4,
          bytes: 3072,
          redactionEnabled: true,
          findings: 3,
          redacted: 2,
          keptFindings: [{ rule: 'anthropic', file: 'sessions/x/session.json', line: 40 }],
          appVersion: '0.1.0',
          createdAt: '2026-01-02T03:04:05.000Z',
        },
      },
    });
    expect(html).toContain('Checked, nothing imported yet: 2 sessions, 4 files');
    expect(count(html, 'data-testid="bundle-preview-session"')).toBe(2);
    expect(html).toContain('Fix the build');
    expect(html).toMatch(/data-key="codex:s2" data-conflict="true"/);
    expect(html).toContain('1 session already here (kept in the vault or listed from its own folder); nothing is ever overwritten.');
    expect(html).toContain('export found 3 secrets and redacted 2.');
    expect(html).toContain('anthropic — sessions/x/session.json:40');
    expect(html).toContain('data-testid="bundle-import-confirm"');
    expect(html).toContain('data-testid="bundle-import-confirm-copies"');
    expect(html).toContain('data-testid="bundle-import-cancel"');
    expect(html).not.toContain('Imported ');
  });
});
