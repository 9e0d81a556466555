// Renderer entry: builds the store on whichever transport this page has and mounts the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from './client.ts';
import { App } from './components/App.tsx';
import { loadMarkdown } from './components/transcript/MarkdownText.tsx';
import { createAppStore } from './store/store.ts';
import { StoreContext } from './store/store-context.ts';
import { pickTransport } from './transport.ts';

const store = createAppStore(createClient(pickTransport()));
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App />
    </StoreContext.Provider>
  </StrictMode>,
);
void store.getState().load();
// The markdown chunk is not part of the first load; fetch it once the page is idle, so a transcript rarely shows plain text first.
const fetchMarkdown = () => void loadMarkdown().catch(() => {});
// Safari has no requestIdleCallback.
if ('requestIdleCallback' in window) requestIdleCallback(fetchMarkdown);
else setTimeout(fetchMarkdown, 200);
