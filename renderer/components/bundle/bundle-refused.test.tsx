// The share dialog names the files an export leaves out because they lie outside every folder added (issue #20.1).
import { describe, expect, it } from 'vitest';
import { count, render } from '../../test-render.tsx';
import { BundleShareDialog } from './BundleShareDialog.tsx';
import type { ShareState } from '../../store/store-bundle.ts';

const share: ShareState = {
  keys: ['vizier:evil-1'],
  format: 'zip',
  phase: 'review',
  redact: true,
  findings: [],
  refused: [
    {
      session: 'vizier:evil-1',
      path: '/home/victim/.ssh/id_ed25519',
      reason: 'is outside every folder you added (its real path, links followed); it was left alone',
    },
  ],
  kept: [],
  progress: null,
  result: null,
  error: null,
  exportId: null,
};

describe('BundleShareDialog refused files', () => {
  it('names each file the review refused, with its reason, before the export', () => {
    const html = render(<BundleShareDialog />, { share });
    expect(count(html, 'data-testid="bundle-refused-file"')).toBe(1);
    expect(html).toContain('/home/victim/.ssh/id_ed25519');
    expect(html).toContain('is outside every folder you added');
    expect(html).toContain('1 file left out');
  });

  it('still names them once the export is done, from the export result', () => {
    const result = {
      exportId: 'e',
      path: '/d/exports/e/s.zip',
      fileName: 's.zip',
      size: 2048,
      sessions: 1,
      files: 2,
      redacted: 0,
      kept: 0,
      refused: share.refused,
    };
    const html = render(<BundleShareDialog />, { share: { ...share, refused: [], phase: 'done', result } });
    expect(count(html, 'data-testid="bundle-refused-file"')).toBe(1);
  });

  it('shows nothing when no file was refused', () => {
    const html = render(<BundleShareDialog />, { share: { ...share, refused: [] } });
    expect(html).not.toContain('bundle-refused');
  });
});
