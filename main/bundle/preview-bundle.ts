// What importing a bundle would bring in: every rule and checksum checked as an import would, nothing written.
import type { BundlePreview } from '../../shared/bundle-api.ts';
import { VaultStore } from '../vault/vault-store.ts';
import { DEFAULT_LIMITS, validateBundle, type ImportLimits } from './validate-bundle.ts';

export interface PreviewOptions {
  dataDir: string;
  /** Whether a key is already known outside the vault (a live session); the vault itself is always asked. */
  known?: (key: string) => boolean;
  limits?: Partial<ImportLimits>;
}

/** Validates the whole bundle (a refused one throws the same BundleError an import would) and lists its sessions. */
export async function previewBundle(zipPath: string, options: PreviewOptions): Promise<BundlePreview> {
  const bundle = await validateBundle(zipPath, { ...DEFAULT_LIMITS, ...options.limits });
  try {
    const store = new VaultStore(options.dataDir);
    const { manifest } = bundle;
    const sessions: BundlePreview['sessions'] = [];
    for (const s of manifest.sessions) {
      const files = manifest.files.filter((f) => f.session === s.folder);
      const conflict = (await store.get(s.key)) !== null || options.known?.(s.key) === true;
      sessions.push({ key: s.key, title: s.title, format: s.format, files: files.length, bytes: files.reduce((n, f) => n + f.size, 0), conflict });
    }
    return {
      sessions,
      files: manifest.files.length,
      bytes: bundle.totalBytes,
      redactionEnabled: manifest.redaction.enabled,
      findings: manifest.redaction.findings,
      redacted: manifest.redaction.redacted,
      keptFindings: manifest.redaction.kept.map(({ rule, file, line }) => ({ rule, file, line })),
      appVersion: manifest.appVersion,
      createdAt: manifest.createdAt,
    };
  } finally {
    bundle.zip.close();
  }
}
