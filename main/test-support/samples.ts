// Where ../shared/samples is (canonicalised, so readers that resolve symlinks compare equal), and whether it exists.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const candidate = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/samples');

/** Absolute path of the shared sample corpus; suites using it skip when it is absent. */
export const samplesDir: string = existsSync(candidate) ? realpathSync(candidate) : candidate;

export function hasSamples(sub: string): boolean {
  return existsSync(join(samplesDir, sub));
}
