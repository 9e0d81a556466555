// The Settings page in the main area (its code loads when first shown) and the top bar's button to it.
import { lazy, Suspense } from 'react';
import { useAppStore } from '../../store/store-context.ts';

const SettingsPage = lazy(() => import('./SettingsPage.tsx'));

export function SettingsView() {
  return (
    <Suspense fallback={<p className="muted detail-placeholder">Loading the settings…</p>}>
      <SettingsPage />
    </Suspense>
  );
}

export function SettingsButton() {
  const open = useAppStore((s) => s.settingsOpen);
  const show = useAppStore((s) => s.showSettings);
  return (
    <button type="button" data-testid="settings-button" aria-pressed={open} onClick={() => show(!open)}>
      Settings
    </button>
  );
}
