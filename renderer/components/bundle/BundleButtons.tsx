// The ways into sharing: "Share…" on the open session, "Share list…" for the sessions the list shows, and the dialogs' mount point.
import { shownCount } from './share-list-keys.ts';
import { OpeningFileDialog } from '../OpenFile.tsx';
import { useAppStore } from '../../store/store-context.ts';
import { BundleDropZone, BundleImportDialog } from './BundleImport.tsx';
import { BundleShareDialog } from './BundleShareDialog.tsx';
import { plural } from '../../format.ts';

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

/** Exports the sessions the list shows now: the search's results while the box holds a query, else every session. */
export function BundleShareListButton() {
  const openShareList = useAppStore((s) => s.openShareList);
  const count = useAppStore(shownCount);
  return (
    <button
      type="button"
      data-testid="bundle-share-list"
      disabled={count === 0}
      title={`Export the ${plural(count, 'session')} the list shows as one bundle`}
      onClick={() => void openShareList()}
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
      <OpeningFileDialog />
    </>
  );
}
