// Where the repository's copy of the sample corpus is (samples/, canonicalised so readers that resolve symlinks compare equal).
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the sample corpus committed in `samples/` (a snapshot of the shared corpus; see samples/README.md). */
export const samplesDir: string = realpathSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../samples'));
