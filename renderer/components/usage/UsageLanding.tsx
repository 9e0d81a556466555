// The usage dashboard as the landing view (no session open) and the top bar's Usage button; the charts load in their own chunk.
import { lazy, Suspense, useEffect } from 'react';
import { useAppStore } from '../../store/store-context.ts';

const loadDashboard = () => import('./UsageDashboard.tsx');
/** The page opens on the dashboard: its address names no session, comparison or settings. */
const opensOnDashboard = typeof location !== 'undefined' && ['', '#', '#/'].includes(location.hash);
// On a page that opens on the dashboard, the chart chunk (600 KB) is asked for when the app's code first runs, not when
// the landing view first renders: it then arrives beside the list's first page, not queued on the server behind the
// list's and the figures' answers. A chunk that fails is shown by the lazy view when it renders, not reported before.
let dashboardChunk: ReturnType<typeof loadDashboard> | null = opensOnDashboard ? loadDashboard() : null;
dashboardChunk?.catch(() => undefined);
const Dashboard = lazy(() => (dashboardChunk ??= loadDashboard()));

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
