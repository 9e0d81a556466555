// The manifest scanned like every other entry before it is written: a session's title is taken from its first prompt, which can hold a key.
import { MANIFEST_PATH } from './bundle-paths.ts';
import type { Finding } from './finding.ts';
import type { Manifest } from './manifest.ts';
import { redactedPieces, SecretScanStream, type ScanContext } from './secret-scan.ts';

/**
 * manifest.json's bytes, with every secret the rules find in it (or the export found anywhere: `ctx.literals`)
 * redacted; no context (an export without redaction) leaves it as it is. Its findings are redacted unless kept by id.
 */
export async function scannedManifest(manifest: Manifest, ctx: ScanContext | null): Promise<{ bytes: Buffer; findings: Finding[] }> {
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  if (!ctx) return { bytes, findings: [] };
  const scan = new SecretScanStream(ctx, { file: MANIFEST_PATH, clip: 'json', emit: true });
  const pieces = await redactedPieces(bytes, scan);
  return { bytes: pieces ? Buffer.concat(pieces) : bytes, findings: scan.findings };
}
