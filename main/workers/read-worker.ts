// Worker thread entry: parses session files off the main thread, or (role index-writer) writes the search index.
import { enableCompileCache } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { WriterData } from '../search-index/index-writer-thread.ts';
import type { ReadRequest, RecycleMessage } from './read-protocol.ts';

const port = parentPort;
if (!port) throw new Error('read-worker must run in a worker thread');

// V8's compiled code of the modules below, from Node's cache folder (NODE_DISABLE_COMPILE_CACHE turns it off): a scan
// starts a worker for each file over 32 MB, and a thread does not share its process's cache. 1 MB of modules: a worker's
// start 165-175 -> 130-140 ms of CPU.
enableCompileCache();

const data = workerData as { pricingFile?: string } | WriterData | null;
if (data && 'role' in data && data.role === 'index-writer') {
  // One entry for both kinds of worker, so the bundle ships a single worker file.
  const { runIndexWriter } = await import('../search-index/index-writer-thread.ts');
  runIndexWriter(port, data);
} else {
  const { applyUserPricing } = await import('../pricing/user-pricing.ts');
  const { readSessionFile, recycleStore, runDeferredWork } = await import('./read-file.ts');
  // The user's price list, if any, applies to every estimate this worker makes (the pool reports problems).
  const pricingFile = data && 'pricingFile' in data ? data.pricingFile : undefined;
  if (pricingFile) applyUserPricing(pricingFile);
  // One task at a time, in the order they came: the pool may queue a task behind the running one (read-pool.ts),
  // and two large files parsed at once would hold twice the memory.
  let running: Promise<void> = Promise.resolve();
  port.on('message', (request: ReadRequest | RecycleMessage) => {
    if ('recycle' in request) return recycleStore(request.recycle);
    running = running
      .then(async () => {
        const response = await readSessionFile(request);
        // The index text and a bundle's session.json are buffers of their own: moved, not copied.
        const text = response.ok && 'summary' in response ? response.text : undefined;
        const json = response.ok && 'prepared' in response ? response.prepared.json : null;
        // A store's batch carries each of its sessions' index text.
        const texts = response.ok && 'results' in response ? response.results.map((r) => (r?.ok ? r.text : undefined)) : [text];
        // A team push's session: its bodies and file parts, packed in one buffer.
        const pushed = response.ok && 'ready' in response && response.ready.kind === 'changed' ? [response.ready.packed] : [];
        const moved = [
          ...texts.flatMap((t) => (t && 'packed' in t ? [t.packed.buffer as ArrayBuffer] : [])),
          ...(json ? [json.buffer as ArrayBuffer] : []),
          ...pushed,
        ];
        port.postMessage(response, moved);
        // A big session's page table is written after its window is answered, beside the tasks that follow.
        void runDeferredWork();
      })
      .catch((err: unknown) => {
        // What a task did not turn into an answer ends the worker, as it would have outside the queue: the pool
        // fails that task and hands the rest to a fresh worker.
        queueMicrotask(() => {
          throw err;
        });
      });
  });
}
