// Worker thread entry: parses session files off the main thread and posts the canonical session back.
import { parentPort } from 'node:worker_threads';
import { readSessionFile } from './read-file.ts';
import type { ReadRequest } from './read-protocol.ts';

const port = parentPort;
if (!port) throw new Error('read-worker must run in a worker thread');

port.on('message', (request: ReadRequest) => {
  void readSessionFile(request).then((response) => port.postMessage(response));
});
