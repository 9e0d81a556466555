// The usage dashboard as the landing view (no session open) and the top bar's Usage button; the charts load in their own chunk.
import { lazy, Suspense, useEffect } from 'react';
import { useAppStore } from '../../store/store-context.ts';

const Dashboard = lazy(() => import('./UsageDashboard.tsx'));

export function UsageLanding() {
  const watch = useAppStore((s) => s.watchUsage);
  // While it is on screen, the dashboard follows the search box.
  useEffect(() => watch(), [watch]);
  return (
    <Suspense fallback={<p className="muted detail-placeholder">Loading the usage dashboard…</p>}>
      <Dashboard />
    </Suspense>
  );
}

export function UsageButton() {
  const shown = useAppStore((s) => s.open === null && s.compare === null);
  const showUsage = useAppStore((s) => s.showUsage);
  return (
    <button type="button" onClick={showUsage} aria-pressed={shown} data-testid="usage-button" title="Tokens, cost and activity for what the search box matches">
      Usage
    </button>
  );
}
