// Child process for the search benchmark: time from process start to the first page of the list, then RSS at rest.
import { createServices } from '../services.ts';

const [dataDir, root] = process.argv.slice(2);
if (!dataDir || !root) throw new Error('usage: search-warm.ts <dataDir> <root>');
const services = createServices({ dataDir, shell: 'cli', extraRoots: [root], discoverDefaults: false, watch: false });
await services.start();
const page = await services.methods.listSessions({ limit: 100 });
const firstPageMs = performance.now();
await services.whenScanned();
await new Promise((r) => setTimeout(r, 500));
globalThis.gc?.();
const restRssMb = process.memoryUsage().rss / 1024 / 1024;
await services.close();
process.stdout.write(`${JSON.stringify({ firstPageMs, listed: page.total, restRssMb })}\n`);
