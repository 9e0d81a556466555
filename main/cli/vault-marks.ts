// What the vault adds to a list row and a search, read without starting it: the user's stars, tags and notes, the vault's summaries, and which paths are its own.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionSummary } from '../../shared/session.ts';
import type { VaultKind } from '../catalogue/catalogue.ts';
import { isWithin } from '../roots/paths.ts';
import type { Annotated } from '../search-index/search-service.ts';
import type { VaultSummaryTexts } from '../search-index/summary-match.ts';
import { vaultFolders } from './index-current.ts';

export interface VaultMarks {
  /** Adds the star, tags and note to a list row (Vault.decorate). */
  decorate: (s: SessionSummary) => SessionSummary;
  /** Stars and tags by key, with the vault's summaries (Vault.annotated). */
  annotated: Annotated;
  /** copy: a kept copy; owned: a fork or a recorded session (Vault.kindOf). */
  kindOf: (path: string) => VaultKind;
  /** The vault's folders the app scans, kept copies first. */
  folders: string[];
  /** Files that could not be read: the full start reports them, so the caller takes it. */
  problems: string[];
  /** The vault keeps sessions on its own (settings.json): a full start's sweep may keep one that went idle since. */
  autoKeep: boolean;
}

function autoKeepOn(root: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(root, 'settings.json'), 'utf8')) as { autoKeep?: unknown }).autoKeep === true;
  } catch {
    return false;
  }
}

/** Whether a vault folder holds a file its store reads (`*.json`); a missing folder holds none. */
function holdsFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.endsWith('.json'));
  } catch {
    return false;
  }
}

/** What the stores give when their folders hold nothing: no marks, no summaries. */
const NO_ANNOTATIONS = { has: () => false, get: () => undefined as never, load: async () => [] as string[] };
const NO_SUMMARIES: VaultSummaryTexts & { load(): string[] } = { keys: () => [], texts: () => [], load: () => [] };

/**
 * The stores, each loaded only when its folder holds files: they check every file against the contract's schemas,
 * and loading and building those (zod) cost a quick `list` in a vault without stars, tags or summaries ~30 ms of its
 * ~400 (median of 15 interleaved runs; ~50 ms of CPU).
 */
async function vaultStores(root: string) {
  const [annotations, summaries] = await Promise.all([
    holdsFiles(join(root, 'annotations')) ? import('../vault/annotations.ts').then((m) => new m.AnnotationStore(root)) : NO_ANNOTATIONS,
    holdsFiles(join(root, 'summaries')) ? import('../vault/summary-store.ts').then((m) => new m.SummaryStore(root)) : NO_SUMMARIES,
  ]);
  return { annotations, summaries };
}

export async function readVaultMarks(dataDir: string): Promise<VaultMarks> {
  const root = join(dataDir, 'vault');
  const { annotations, summaries } = await vaultStores(root);
  const problems = [...(await annotations.load()), ...summaries.load()];
  const [copies, ...owned] = vaultFolders(dataDir) as [string, ...string[]];
  const marks = (key: string) => {
    if (!annotations.has(key)) return null;
    const a = annotations.get(key);
    return { starred: a.starred, tags: a.tags };
  };
  return {
    decorate: (s) => {
      if (!annotations.has(s.key)) return s;
      const a = annotations.get(s.key);
      return { ...s, starred: a.starred, tags: a.tags, hasNote: a.note.length > 0 };
    },
    annotated: Object.assign(marks, { summaries }),
    kindOf: (path) => (isWithin(copies, path) ? 'copy' : owned.some((r) => isWithin(r, path)) ? 'owned' : null),
    folders: [copies, ...owned],
    problems,
    autoKeep: autoKeepOn(root),
  };
}
