// Stops `npm start`, `npm run serve` and the `session-vault` command with one sentence when Node.js is too old (written in plain JavaScript so old Node can run it).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const NEEDED = 24;

/** The sentence for a Node.js version that cannot run Session Vault, or null when it can. */
export function versionProblem(version) {
  const major = Number(String(version).replace(/^v/, '').split('.')[0]);
  if (Number.isFinite(major) && major >= NEEDED) return null;
  return `Session Vault needs Node.js ${NEEDED} or newer (found ${String(version).replace(/^v/, '')}): its index uses the built-in node:sqlite. Install Node.js ${NEEDED} (the repository's .nvmrc names it) and run the command again.`;
}

/** Exits with the sentence when this process's Node.js is too old. */
export function requireSupportedNode() {
  const problem = versionProblem(process.versions.node);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}

// Run as a script (`node build/check-node.js`), not imported.
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) requireSupportedNode();
