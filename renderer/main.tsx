// Renderer entry: builds the store on whichever transport this page has and mounts the app.
// First: no schema may probe for eval before this runs.
import './zod-no-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from './client.ts';
import { App } from './components/App.tsx';
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
