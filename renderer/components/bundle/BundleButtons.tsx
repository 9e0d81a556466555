// The ways into sharing: "Share…" on the open session, "Share list…" for the sessions the list shows, and the dialogs' mount point.
import { visibleSessions } from '../../session-filter.ts';
import { useAppStore } from '../../store/store-context.ts';
import { BundleDropZone, BundleImportDialog } from './BundleImport.tsx';
import { BundleShareDialog } from './BundleShareDialog.tsx';

export function BundleShareButton({ sessionKey }: { sessionKey: string }) {
  const openShare = useAppStore((s) => s.openShare);
  return (
    <button
      type="button"
      data-testid="bundle-share"
      title="Export this session as a bundle, Markdown or HTML — secrets reviewed first"
      onClick={() => void openShare([sessionKey])}
    >
      Share…
    </button>
  );
}

/** Exports the sessions the list shows now (the filter's result). */
export function BundleShareListButton() {
  const openShare = useAppStore((s) => s.openShare);
  const sessions = useAppStore((s) => s.sessions);
  const filter = useAppStore((s) => s.filter);
  const keys = visibleSessions(sessions, filter)
    .filter((s) => !s.unreadable)
    .map((s) => s.key);
  return (
    <button
      type="button"
      data-testid="bundle-share-list"
      disabled={!keys.length}
      title="Export every session the list shows as one bundle"
      onClick={() => void openShare(keys)}
    >
      Share list…
    </button>
  );
}

/** Rendered once by the app: the drop zone and whichever sharing dialog is open. */
export function BundleLayer() {
  return (
    <>
      <BundleDropZone />
      <BundleShareDialog />
      <BundleImportDialog />
    </>
  );
}
