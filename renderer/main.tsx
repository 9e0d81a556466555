// Renderer entry: builds the store on whichever transport this page has and mounts the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from './transport/client.ts';
import { AccessNeeded } from './components/AccessNeeded.tsx';
import { App } from './components/App.tsx';
import { appearance } from './components/settings/appearance.ts';
import { syncAppearance } from './components/settings/appearance-sync.ts';
import { loadMarkdown } from './components/transcript/MarkdownText.tsx';
import { createAppStore } from './store/store.ts';
import { StoreContext } from './store/store-context.ts';
import { pickTransport } from './transport/transport.ts';

/** This window's localStorage, or null where the page may not use it (some privacy settings). */
function windowStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

// The stored theme and text size, on <html> before anything renders.
appearance();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const transport = pickTransport();

if (!transport) {
  // Every call would be refused: say what to open instead of showing an app that cannot load.
  createRoot(container).render(<AccessNeeded />);
} else {
  const client = createClient(transport);
  const store = createAppStore(client);
  syncAppearance(client, appearance(), windowStorage());
  createRoot(container).render(
    <StrictMode>
      <StoreContext.Provider value={store}>
        <App />
      </StoreContext.Provider>
    </StrictMode>,
  );
  void store.getState().load();
}
// The markdown chunk is not part of the first load; fetch it once the page is idle, so a transcript rarely shows plain text first.
const fetchMarkdown = () => void loadMarkdown().catch(() => {});
// Safari has no requestIdleCallback.
if ('requestIdleCallback' in window) requestIdleCallback(fetchMarkdown);
else setTimeout(fetchMarkdown, 200);
