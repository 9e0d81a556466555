// The sharing slice against a fake client: review and untick findings, export with progress and save, cancel, import in pieces.
import { describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { BundleExport, BundleFinding, BundleImport } from '../../shared/bundle-api.ts';
import { ClientError } from '../transport/client.ts';
import { createBundleSlice, type BundleSlice, type PickedFile } from './store-bundle.ts';
import { fakeClient } from '../test-fixtures.ts';

const finding = (id: string, rule: string): BundleFinding => ({
  id,
  rule,
  file: 'sessions/x/source/a.jsonl',
  line: 3,
  preview: `${rule} ****`,
  redacted: true,
});
const exported: BundleExport = {
  exportId: 'set-by-test',
  path: '/data/exports/x/share.zip',
  fileName: 'share.zip',
  size: 5,
  sessions: 1,
  files: 2,
  redacted: 1,
  kept: 1,
};
const b64 = (text: string) => btoa(text);
/** What a base64 chunk the slice uploaded says (the tests' bundles are ASCII). */
const fromB64 = (data: string) => atob(data);

function setup(over: Parameters<typeof fakeClient>[0] = {}) {
  const saved: Array<{ name: string; bytes: string }> = [];
  let refreshed = 0;
  const fake = fakeClient({
    scanBundle: async () => ({ findings: [finding('f1', 'github'), finding('f2', 'ENV:HOME_TOKEN')], sessions: 1, files: 2, bytes: 100 }),
    exportBundle: async (input: { exportId: string }) => {
      fake.emit({
        name: 'bundleProgress',
        payload: { exportId: input.exportId, phase: 'write', sessionsDone: 0, sessionsTotal: 1, bytesDone: 40, bytesTotal: 100 },
      });
      return { ...exported, exportId: input.exportId };
    },
    // The export's bytes "hello", served in two pieces.
    readExport: async ({ offset }: { offset: number }) =>
      offset === 0 ? { data: b64('hel'), offset, size: 5, done: false } : { data: b64('lo'), offset, size: 5, done: true },
    ...over,
  });
  type State = BundleSlice & { refresh(): Promise<void> };
  const store = createStore<State>()((set, get) => ({
    ...createBundleSlice(fake.client, set, get, (parts, name) => saved.push({ name, bytes: parts.map((p) => new TextDecoder().decode(p)).join('') })),
    refresh: async () => void refreshed++,
  }));
  const calls = (method: string) => fake.calls.filter((c) => c.method === method).map((c) => c.input);
  return { store, fake, calls, saved, refreshed: () => refreshed };
}

function file(text: string, name = 'share.zip'): PickedFile {
  const bytes = new TextEncoder().encode(text);
  return { name, size: bytes.length, slice: (a, b) => ({ arrayBuffer: async () => new Uint8Array(bytes.subarray(a, b)).buffer }) };
}

describe('sharing: review, export, save', () => {
  it('scans the selection, keeps an unticked finding, follows progress, fetches the export in pieces and saves it', async () => {
    const { store, fake, calls, saved } = setup();
    await store.getState().openShare(['claude-code:s1']);
    expect(store.getState().share).toMatchObject({ phase: 'review', format: 'zip', kept: [] });
    expect(store.getState().share?.findings.map((f) => f.id)).toEqual(['f1', 'f2']);
    store.getState().toggleFinding('f2');
    await store.getState().startExport();
    const input = calls('exportBundle')[0] as { exportId: string; keep: string[]; redact: boolean; keys: string[] };
    expect(input).toMatchObject({ keys: ['claude-code:s1'], keep: ['f2'], redact: true, format: 'zip' });
    expect(input.exportId).toMatch(/^ui-[0-9a-f]{24}$/);
    expect(calls('readExport').map((c) => (c as { offset: number }).offset)).toEqual([0, 3]);
    expect(saved).toEqual([{ name: 'share.zip', bytes: 'hello' }]);
    expect(store.getState().share).toMatchObject({ phase: 'done', progress: { done: 5, total: 5 } });
    expect(fake.subscribers()).toBe(0);
  });

  it('shows the progress of the review scan, and Cancel while scanning stops that scan', async () => {
    let finish: () => void = () => undefined;
    const { store, fake, calls } = setup({
      scanBundle: (input: { scanId: string }) =>
        new Promise((resolve) => {
          fake.emit({
            name: 'bundleProgress',
            payload: { exportId: input.scanId, phase: 'scan', sessionsDone: 0, sessionsTotal: 3, bytesDone: 250, bytesTotal: 1000 },
          });
          fake.emit({
            name: 'bundleProgress',
            payload: { exportId: 'someone-else', phase: 'scan', sessionsDone: 0, sessionsTotal: 3, bytesDone: 999, bytesTotal: 1000 },
          });
          finish = () => resolve({ findings: [], sessions: 3, files: 3, bytes: 1000 });
        }),
      cancelExport: async () => ({ cancelled: true }),
    });
    const opening = store.getState().openShare(['a:1', 'b:2', 'c:3']);
    await Promise.resolve();
    const scanId = (calls('scanBundle')[0] as { scanId: string }).scanId;
    expect(scanId).toMatch(/^ui-[0-9a-f]{24}$/);
    expect(store.getState().share).toMatchObject({ phase: 'scanning', progress: { done: 250, total: 1000 } });
    await store.getState().cancelShare();
    expect(calls('cancelExport')).toEqual([{ exportId: scanId }]);
    expect(store.getState().share).toBeNull();
    finish();
    await opening;
    expect(store.getState().share).toBeNull();
    expect(fake.subscribers()).toBe(0);
  });

  it('offers Markdown and HTML for one session only, and rescans when the format changes', async () => {
    const { store, calls } = setup();
    await store.getState().openShare(['a:1', 'b:2']);
    await store.getState().setShareFormat('md');
    expect(store.getState().share?.format).toBe('zip');
    await store.getState().openShare(['a:1']);
    await store.getState().setShareFormat('html');
    expect(calls('scanBundle').at(-1)).toMatchObject({ keys: ['a:1'], format: 'html' });
  });

  it('with redaction off there is nothing to review, and the export says so', async () => {
    const { store, calls } = setup();
    await store.getState().openShare(['a:1']);
    store.getState().setRedact(false);
    expect(store.getState().share).toMatchObject({ phase: 'review', findings: [] });
    await store.getState().startExport();
    expect(calls('exportBundle')[0]).toMatchObject({ redact: false });
  });

  it('cancelling a running export asks the service to stop it and closes the dialog', async () => {
    let release: () => void = () => undefined;
    const { store, calls } = setup({
      exportBundle: () => new Promise((_, reject) => (release = () => reject(new ClientError('CANCELLED', 'The export was cancelled; nothing was written.')))),
      cancelExport: async () => ({ cancelled: true }),
    });
    await store.getState().openShare(['a:1']);
    const running = store.getState().startExport();
    const exportId = store.getState().share?.exportId;
    await store.getState().cancelShare();
    expect(calls('cancelExport')).toEqual([{ exportId }]);
    release();
    await running;
    expect(store.getState().share).toBeNull();
  });

  it('a failed export shows its message', async () => {
    const { store } = setup({ exportBundle: async () => Promise.reject(new ClientError('NOT_FOUND', 'A source file of a:1 is missing: /x')) });
    await store.getState().openShare(['a:1']);
    await store.getState().startExport();
    expect(store.getState().share).toMatchObject({ phase: 'error', error: 'A source file of a:1 is missing: /x' });
  });
});

describe('importing a bundle', () => {
  const report: BundleImport = {
    imported: [{ key: 'a:1', title: 'A', copyOf: null }],
    skipped: [{ key: 'b:2', title: 'B', reason: 'already in the vault' }],
    files: 2,
    redacted: 3,
    redactionEnabled: true,
  };

  it('uploads the file in order, imports it, reports, refreshes the list; "as copies" imports the skipped again', async () => {
    const received: string[] = [];
    const { store, calls, refreshed } = setup({
      beginUpload: async () => ({ uploadId: 'u'.repeat(32) }),
      uploadChunk: async ({ offset, data }: { offset: number; data: string }) => {
        received.push(fromB64(data));
        return { received: offset + fromB64(data).length };
      },
      importBundle: async () => report,
    });
    await store.getState().importFile(file('PK-bundle-bytes'));
    expect(calls('beginUpload')).toEqual([{ size: 15 }]);
    expect(received.join('')).toBe('PK-bundle-bytes');
    expect(calls('importBundle')).toEqual([{ uploadId: 'u'.repeat(32), asCopy: false }]);
    expect(store.getState().importing).toMatchObject({ phase: 'done', sent: 15, report });
    expect(refreshed()).toBe(1);
    await store.getState().importAsCopies();
    expect(calls('importBundle').at(-1)).toEqual({ uploadId: 'u'.repeat(32), asCopy: true });
  });

  it('a bundle opened with the app is read from the main process and previewed, each once; nothing is imported until confirmed', async () => {
    const bytes = new TextEncoder().encode('PK-opened-bundle');
    let handedOut = false;
    const received: string[] = [];
    const preview = {
      sessions: [{ key: 'claude-code:s1', title: 'Fix the build', format: 'claude-code', files: 2, bytes: 10, conflict: false }],
      files: 2,
      bytes: 10,
      redactionEnabled: true,
      findings: 1,
      redacted: 1,
      keptFindings: [],
      appVersion: '0.1.0',
      createdAt: '2026-01-02T03:04:05.000Z',
    };
    const { store, calls, refreshed } = setup({
      takeOpenedBundles: async () => (handedOut ? [] : ((handedOut = true), [{ openId: 'o'.repeat(32), fileName: 'team.zip', size: bytes.length }])),
      readOpenedBundle: async ({ offset, length }: { offset: number; length: number }) => ({
        data: btoa(String.fromCharCode(...bytes.subarray(offset, offset + length))),
      }),
      beginUpload: async () => ({ uploadId: 'u'.repeat(32) }),
      uploadChunk: async ({ offset, data }: { offset: number; data: string }) => {
        received.push(fromB64(data));
        return { received: offset + fromB64(data).length };
      },
      previewBundle: async () => preview,
      importBundle: async () => report,
    });
    await store.getState().importOpened();
    await store.getState().importOpened();
    expect(received.join('')).toBe('PK-opened-bundle');
    expect(calls('previewBundle')).toEqual([{ uploadId: 'u'.repeat(32) }]);
    expect(calls('importBundle')).toEqual([]);
    expect(store.getState().importing).toMatchObject({ fileName: 'team.zip', phase: 'preview', preview, report: null });

    await store.getState().confirmImport();
    expect(calls('importBundle')).toEqual([{ uploadId: 'u'.repeat(32), asCopy: false }]);
    expect(store.getState().importing).toMatchObject({ fileName: 'team.zip', phase: 'done', report });
    expect(refreshed()).toBe(1);
  });

  it('an opened bundle the user cancels at the preview is never imported, and the next opened one is previewed', async () => {
    const opened = [
      { openId: 'a'.repeat(32), fileName: 'first.zip', size: 2 },
      { openId: 'b'.repeat(32), fileName: 'second.zip', size: 2 },
    ];
    let handedOut = false;
    const { store, calls } = setup({
      takeOpenedBundles: async () => (handedOut ? [] : ((handedOut = true), opened)),
      readOpenedBundle: async () => ({ data: b64('PK') }),
      beginUpload: async () => ({ uploadId: 'u'.repeat(32) }),
      uploadChunk: async () => ({ received: 2 }),
      previewBundle: async () => ({
        sessions: [],
        files: 0,
        bytes: 0,
        redactionEnabled: true,
        findings: 0,
        redacted: 0,
        keptFindings: [],
        appVersion: '0.1.0',
        createdAt: '',
      }),
      importBundle: async () => report,
    });
    await store.getState().importOpened();
    expect(store.getState().importing).toMatchObject({ fileName: 'first.zip', phase: 'preview' });
    store.getState().closeImport();
    await vi.waitFor(() => expect(store.getState().importing).toMatchObject({ fileName: 'second.zip', phase: 'preview' }));
    store.getState().closeImport();
    expect(store.getState().importing).toBeNull();
    expect(calls('importBundle')).toEqual([]);
  });

  it('a refused bundle shows the entry and the rule', async () => {
    const message = 'Entry "../evil.txt" was refused (unsafe-path): the name has a ".." segment (zip slip).';
    const { store } = setup({
      beginUpload: async () => ({ uploadId: 'u'.repeat(32) }),
      uploadChunk: async () => ({ received: 3 }),
      importBundle: async () => Promise.reject(new ClientError('INVALID_INPUT', message, 'uploadId')),
    });
    await store.getState().importFile(file('bad'));
    expect(store.getState().importing).toMatchObject({ phase: 'error', error: message });
  });
});
