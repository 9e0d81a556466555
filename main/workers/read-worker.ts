// Worker thread entry: parses session files off the main thread and posts the canonical session back.
import { parentPort, workerData } from 'node:worker_threads';
import { applyUserPricing } from '../pricing/user-pricing.ts';
import { readSessionFile } from './read-file.ts';
import type { ReadRequest } from './read-protocol.ts';

const port = parentPort;
if (!port) throw new Error('read-worker must run in a worker thread');

// The user's price list, if any, applies to every estimate this worker makes (the pool reports problems).
const pricingFile = (workerData as { pricingFile?: string } | null)?.pricingFile;
if (pricingFile) applyUserPricing(pricingFile);

port.on('message', (request: ReadRequest) => {
  void readSessionFile(request).then((response) => port.postMessage(response));
});
