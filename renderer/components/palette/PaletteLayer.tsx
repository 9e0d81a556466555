// Opens the command palette on Ctrl/⌘+K (from anywhere, even a text field) or from the top bar; the palette itself loads in its own chunk.
import { lazy, Suspense, useEffect, useState } from 'react';

const CommandPalette = lazy(() => import('./CommandPalette.tsx'));

/** Sent on window by the top bar's button: opens the palette. */
export const OPEN_PALETTE_EVENT = 'session-vault:open-palette';

/** Ctrl+K, or ⌘K on a Mac: the same key the palette's hint names. */
export function isPaletteKey(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): boolean {
  return e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
}

export function PaletteLayer() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isPaletteKey(e)) return;
      // Not while another dialog is up: it owns the keyboard until it closes.
      if (!open && document.querySelector('dialog[open]')) return;
      e.preventDefault();
      setOpen((v) => !v);
    };
    const show = () => setOpen(true);
    window.addEventListener('keydown', onKey, true);
    window.addEventListener(OPEN_PALETTE_EVENT, show);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener(OPEN_PALETTE_EVENT, show);
    };
  }, [open]);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <CommandPalette onClose={() => setOpen(false)} />
    </Suspense>
  );
}

export function PaletteButton() {
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <button
      type="button"
      className="palette-button"
      data-testid="palette-button"
      title="Command palette: open a session or run any action"
      aria-keyshortcuts={mac ? 'Meta+K' : 'Control+K'}
      onClick={() => window.dispatchEvent(new Event(OPEN_PALETTE_EVENT))}
    >
      {mac ? '⌘K' : 'Ctrl+K'}
    </button>
  );
}
