// The palette offers what can be done now: actions on the open session only when one is open, saying what they will do.
import { describe, expect, it } from 'vitest';
import { fakeClient, session } from '../../test-fixtures.ts';
import { createAppStore } from '../../store/store.ts';
import { paletteActions } from './palette-actions.ts';

const host = { theme: 'system' as const, setTheme: () => {}, openHelp: () => {} };

describe('paletteActions', () => {
  it('without an open session: the app-wide actions, no theme that is already chosen', () => {
    const store = createAppStore(fakeClient({}).client);
    const ids = paletteActions(store.getState(), host).map((a) => a.id);
    expect(ids).toEqual(['share-list', 'usage', 'settings', 'add-folder', 'rescan', 'theme-light', 'theme-dark', 'help', 'demo']);
  });

  it('with an open session: keep (until kept), star or unstar, share, compare with…', () => {
    const store = createAppStore(fakeClient({}).client);
    const open = session({ key: 'a:1', title: 'Fix the build' });
    store.setState({ open: { key: 'a:1', session: open, loading: false, error: null, errorCode: null, unreadable: null, removed: false } });
    const labels = () =>
      paletteActions(store.getState(), host)
        .slice(0, 4)
        .map((a) => a.label);
    expect(labels()).toEqual([
      'Keep “Fix the build” in the vault',
      'Star “Fix the build”',
      'Share or export “Fix the build”…',
      'Compare “Fix the build” with…',
    ]);
    store.setState({
      vault: {
        key: 'a:1',
        loading: false,
        busy: null,
        error: null,
        noteSavedAt: null,
        resume: null,
        notice: null,
        status: { keptPath: '/vault/a', keptAt: null, liveSourcePath: null, annotations: { starred: true, tags: [], note: '', updatedAt: null } },
      },
    });
    expect(labels()).toEqual([
      'Unstar “Fix the build”',
      'Share or export “Fix the build”…',
      'Compare “Fix the build” with…',
      'Share the sessions the list shows…',
    ]);
  });

  it("offers no keep or star for a team session: the team store keeps it, and stars are this machine's", () => {
    const store = createAppStore(fakeClient({}).client);
    const key = 'bob-desktop/codex:1';
    store.setState({
      open: { key, session: session({ key, title: 'Berth bookings' }), loading: false, error: null, errorCode: null, unreadable: null, removed: false },
    });
    const ids = paletteActions(store.getState(), host).map((a) => a.id);
    expect(ids).not.toContain('keep');
    expect(ids).not.toContain('star');
    expect(ids.slice(0, 2)).toEqual(['share', 'compare']);
  });

  it('asks for more on a page of its own for "Compare with…" and "Add a folder…"', () => {
    const store = createAppStore(fakeClient({}).client);
    store.setState({ open: { key: 'a:1', session: session({ key: 'a:1' }), loading: false, error: null, errorCode: null, unreadable: null, removed: false } });
    const byId = new Map(paletteActions(store.getState(), { ...host, theme: 'dark' }).map((a) => [a.id, a]));
    expect(byId.get('compare')?.run()).toBe('compare');
    expect(byId.get('add-folder')?.run()).toBe('add-folder');
    expect(byId.has('theme-dark')).toBe(false);
  });
});
