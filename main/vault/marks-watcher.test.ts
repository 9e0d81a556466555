// The vault marks watcher: stars, tags, notes and summaries another process writes or removes are reported by session; the app's own writes are not.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testTempDir } from '../test-support/temp-dir.ts';
import { AnnotationStore } from './annotations.ts';
import { VaultMarksWatcher } from './marks-watcher.ts';
import { SummaryStore } from './summary-store.ts';

const summary = (overview: string) => ({ overview, decisions: [], outcomes: [], openItems: [], tags: [] });

const open: VaultMarksWatcher[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((w) => w.close()));
});

/** The app's stores and its watcher on `vault`, and every batch of keys it reported. */
async function appOn(vault: string) {
  const annotations = new AnnotationStore(vault);
  const summaries = new SummaryStore(vault);
  const reported: string[][] = [];
  const problems: string[] = [];
  const watcher = new VaultMarksWatcher({ annotations, summaries, onChanged: (keys) => reported.push([...keys].sort()), onProblem: (m) => problems.push(m) });
  open.push(watcher);
  await watcher.start();
  await annotations.load();
  summaries.load();
  return { annotations, summaries, reported, problems, watcher };
}

/** Waits until `check` passes (watch events arrive after a debounce). */
async function eventually(check: () => void, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

describe('VaultMarksWatcher', () => {
  it("reports a star, tags or a note another process wrote, and their removal, with the app's store up to date", async () => {
    const vault = testTempDir('sv-marks-');
    const app = await appOn(vault);
    const other = new AnnotationStore(vault);
    await other.load();

    await other.set('codex:abc', { starred: true, tags: ['etl'], note: 'driver pinned' });
    await eventually(() => expect(app.reported).toContainEqual(['codex:abc']));
    expect(app.annotations.get('codex:abc')).toMatchObject({ starred: true, tags: ['etl'], note: 'driver pinned' });

    app.reported.length = 0;
    await other.set('codex:abc', { starred: false, tags: [], note: '' });
    await eventually(() => expect(app.reported).toContainEqual(['codex:abc']));
    expect(app.annotations.has('codex:abc')).toBe(false);
    expect(app.problems).toEqual([]);
  });

  it('reports a summary another process wrote, changed or removed', async () => {
    const vault = testTempDir('sv-marks-');
    const app = await appOn(vault);
    const other = new SummaryStore(vault);
    other.load();

    await other.set('claude-code:s1', summary('Fixed the flaky build.'), 'cli');
    await eventually(() => expect(app.reported).toContainEqual(['claude-code:s1']));
    expect(app.summaries.get('claude-code:s1')?.summary.overview).toBe('Fixed the flaky build.');

    app.reported.length = 0;
    await other.set('claude-code:s1', summary('Fixed the flaky build; added a canary.'), 'cli');
    await eventually(() => expect(app.reported).toContainEqual(['claude-code:s1']));

    app.reported.length = 0;
    await other.remove('claude-code:s1');
    await eventually(() => expect(app.reported).toContainEqual(['claude-code:s1']));
    expect(app.summaries.get('claude-code:s1')).toBeUndefined();
  });

  it("says nothing about the app's own writes (the window already shows them)", async () => {
    const vault = testTempDir('sv-marks-');
    const app = await appOn(vault);
    await app.annotations.set('codex:mine', { starred: true });
    await app.summaries.set('codex:mine', summary('Mine.'), 'you');
    // A write of another session after them: once it is reported, the batches before it have been handled too.
    await new AnnotationStore(vault).set('codex:theirs', { note: 'theirs' });
    await eventually(() => expect(app.reported.flat()).toContain('codex:theirs'));
    await app.watcher.settled();
    expect(app.reported.flat()).not.toContain('codex:mine');
  });

  it('keeps what it held when a file turns out not to be valid, and says so', async () => {
    const vault = testTempDir('sv-marks-');
    const app = await appOn(vault);
    await app.annotations.set('codex:abc', { tags: ['keep-me'] });
    await writeFile(join(vault, 'annotations', 'broken.json'), '{"key": 3}');
    await eventually(() => expect(app.problems).toEqual(['Annotation file broken.json is not valid and was skipped.']));
    expect(app.annotations.get('codex:abc').tags).toEqual(['keep-me']);
    expect(app.reported).toEqual([]);
  });
});
