// The vault's contract methods: keep, annotations, fork, resume, prune, delete/restore, clear, auto-keep's setting (its sweeps: auto-keep.ts).
import { readFile, rm } from 'node:fs/promises';
import { isOnPath, launchTerminal, terminalPlan } from './terminal-launch.ts';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Session, SessionSummary } from '../../shared/session.ts';
import { AppError } from '../../shared/result.ts';
import { VaultSettings, type TrashEntry, type VaultStatus } from '../../shared/vault-api.ts';
import type { Catalogue, VaultKind } from '../catalogue/catalogue.ts';
import type { ServiceMethods } from '../../shared/api.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { statFile } from '../fs/stat-file.ts';
import { isWithin } from '../roots/paths.ts';
import type { SessionFileCheck } from '../roots/session-files.ts';
import { AnnotationStore } from './annotations.ts';
import { AutoKeep } from './auto-keep.ts';
import { SessionSummaries, type SummaryMethodNames } from './summary-methods.ts';
import { SummaryStore } from './summary-store.ts';
import type { Annotated } from '../search-index/search-service.ts';
import { forkSession } from './fork.ts';
import { resumeInfo } from './resume-info.ts';
import { VaultTrash } from './trash.ts';
import { sweepTempFiles } from './sweep-temp.ts';
import { KeptMeta, VaultStore } from './vault-store.ts';

/** Electron abilities the vault uses when it has them (the OS trash); the CLI and `serve` go without. */
export interface VaultHost {
  trashItem?(path: string): Promise<void>;
}

export interface VaultDeps {
  dataDir: string;
  catalogue: Catalogue;
  /** The whole session behind a key (all messages), read in a worker. */
  readFull(key: string): Promise<Session>;
  /** Re-reads the vault's folders after the vault changed them (the watcher would too, a little later). */
  rescanVault(): Promise<void>;
  /** The roots check every file a keep copies or a delete removes must pass first. */
  files: SessionFileCheck;
  /**
   * A session inside a store (an agent's SQLite database): its own rows as a rows document, which its kept copy holds
   * instead of the store (library/session-reader.ts). Without it such sessions cannot be kept.
   */
  rowsDocument?(key: string): Promise<{ path: string; bytes: Uint8Array; mtimeMs: number }>;
  host?: VaultHost | undefined;
  /** Which of these sessions' own files carry a summary (ProjectHub's summary_json), and the session without messages to read it from. */
  ownSummaries?(keys: readonly string[]): Set<string>;
  sessionHead?(key: string): Promise<Session>;
}

export type VaultMethodNames =
  | 'getVaultStatus'
  | 'keepSession'
  | 'setAnnotations'
  | 'forkSession'
  | 'getResumeInfo'
  | 'resumeInTerminal'
  | 'pruneVault'
  | 'deleteSession'
  | 'listTrash'
  | 'restoreSession'
  | 'clearVault'
  | 'getVaultSettings'
  | 'setVaultSettings';

export class Vault {
  readonly store: VaultStore;
  readonly annotations: AnnotationStore;
  /** Structured summaries per session (overview, decisions, outcomes, open items, tags), one file each like annotations. */
  readonly summaries: SessionSummaries;
  readonly trash: VaultTrash;
  /** Forks are written here by the session writer, in Vizier's MVP layout, so the Vizier reader lists them. */
  readonly forksDir: string;
  private settings: VaultSettings = { autoKeep: false };
  private readonly autoKeep: AutoKeep;
  private readonly settingsFile: string;
  private readonly deps: VaultDeps;
  /** Vault folder name → the key its copy was kept under. */
  private readonly copyKeys = new Map<string, string>();

  constructor(deps: VaultDeps) {
    this.deps = deps;
    this.store = new VaultStore(deps.dataDir);
    this.annotations = new AnnotationStore(this.store.root);
    this.summaries = new SessionSummaries(new SummaryStore(this.store.root), {
      known: (key) => deps.catalogue.byKey(key) !== undefined,
      ...(deps.ownSummaries ? { ownSummaries: deps.ownSummaries } : {}),
      ...(deps.sessionHead ? { sessionHead: deps.sessionHead } : {}),
    });
    this.annotated = Object.assign((key: string) => this.marks(key), { summaries: this.summaries.store });
    this.trash = new VaultTrash(this.store.root);
    this.forksDir = join(this.store.root, 'forks', '.vizier', 'sessions');
    this.settingsFile = join(this.store.root, 'settings.json');
    this.autoKeep = new AutoKeep({
      catalogue: deps.catalogue,
      store: this.store,
      enabled: () => this.settings.autoKeep,
      kindOf: this.kindOf,
      keepLive: (key, store) => this.keepLive(key, store),
      rescanVault: () => deps.rescanVault(),
    });
  }

  /** The folders the catalogue must scan for the vault's own sessions: kept copies, forks, recorded sessions. */
  /** Where kept copies live (one folder per session). */
  get copiesDir(): string {
    return this.store.sessionsDir;
  }

  roots(): string[] {
    return [this.store.sessionsDir, ...this.ownedRoots()];
  }

  /** Sessions only the vault has: forks, and `session-vault record` runs made outside a git repository. */
  private ownedRoots(): string[] {
    this.owned ??= [join(this.store.root, 'forks'), join(this.store.root, 'recorded')];
    return this.owned;
  }

  private owned: string[] | null = null;

  kindOf = (path: string): VaultKind => {
    if (isWithin(this.store.sessionsDir, path)) return 'copy';
    if (this.ownedRoots().some((r) => isWithin(r, path))) return 'owned';
    return null;
  };

  /** The key a vault copy was kept under, from its meta.json (read once per folder); null when it has none yet. */
  copyKeyOf = (path: string): string | null => {
    const rel = relative(this.store.sessionsDir, path);
    const folder = rel.split(sep)[0];
    if (!folder || folder === '..' || isAbsolute(rel)) return null;
    const cached = this.copyKeys.get(folder);
    if (cached) return cached;
    try {
      const meta = KeptMeta.safeParse(JSON.parse(readFileSync(join(this.store.sessionsDir, folder, 'meta.json'), 'utf8')));
      if (!meta.success) return null;
      // A folder's name is derived from its key, so what it holds never changes key.
      this.copyKeys.set(folder, meta.data.key);
      return meta.data.key;
    } catch {
      return null;
    }
  };

  /** Adds the user's star, tags and note to a list row. */
  decorate = (s: SessionSummary): SessionSummary => {
    if (!this.annotations.has(s.key)) return s;
    const a = this.annotations.get(s.key);
    return { ...s, starred: a.starred, tags: a.tags, hasNote: a.note.length > 0 };
  };

  /** The user's star and tags on a session (null when it has none), and the vault's summaries: what search reads of the vault. */
  readonly annotated: Annotated;

  private marks(key: string): { starred: boolean; tags: readonly string[] } | null {
    if (!this.annotations.has(key)) return null;
    const a = this.annotations.get(key);
    return { starred: a.starred, tags: a.tags };
  }

  async load(): Promise<string[]> {
    const problems = [...(await this.annotations.load()), ...this.summaries.store.load()];
    try {
      const parsed = VaultSettings.safeParse(JSON.parse(await readFile(this.settingsFile, 'utf8')));
      if (parsed.success) this.settings = parsed.data;
      else problems.push(`${this.settingsFile} is not valid; using the default vault settings.`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${this.settingsFile} could not be read.`);
    }
    const swept = await this.store.sweepStaging();
    if (swept) problems.push(`Removed ${swept} unfinished vault cop${swept === 1 ? 'y' : 'ies'} left by an interrupted keep.`);
    // The data folder's own files (roots list, annotations, recorded and forked sessions), not the vault's kept sources.
    // Top level only for the data folder: Electron keeps its browser profile below it, with temp files of its own.
    const temps = (await sweepTempFiles([this.store.root])) + (await sweepTempFiles([this.deps.dataDir], 60_000, Date.now(), 0));
    if (temps) problems.push(`Removed ${temps} temporary file${temps === 1 ? '' : 's'} left by an interrupted write.`);
    return problems;
  }

  private entry(key: string) {
    const entry = this.deps.catalogue.byKey(key);
    if (!entry) throw new AppError('NOT_FOUND', `No session with key "${key}" is known. It may have been deleted.`, 'key');
    return entry;
  }

  async status(key: string): Promise<VaultStatus> {
    const entry = this.entry(key);
    const kept = await this.store.get(key);
    const live = this.kindOf(entry.path) === 'copy' ? null : (entry.store ?? entry.path);
    return {
      annotations: this.annotations.get(key),
      keptPath: kept?.dir ?? (this.kindOf(entry.path) === 'owned' ? entry.path : null),
      keptAt: kept?.meta.keptAt ?? null,
      liveSourcePath: live && (await statFile(live)) ? live : null,
    };
  }

  async keep(key: string): Promise<VaultStatus> {
    const entry = this.entry(key);
    if (entry.summary.unreadable) throw new AppError('UNREADABLE', `Cannot keep an unreadable file: ${entry.summary.unreadable.message}`);
    if (this.kindOf(entry.path) !== null) return this.status(key); // already the vault's own
    await this.keepLive(key, entry.store);
    await this.deps.rescanVault();
    return this.status(key);
  }

  /**
   * Copies a live session into the vault. A session inside a store keeps its normalized session and its own rows
   * (read back by the store's reader when the live one is gone), never the store: it holds every other session.
   */
  private async keepLive(key: string, store: string | null): Promise<void> {
    const session = await this.insideRoots(await this.deps.readFull(key));
    if (!store) {
      await this.store.keep(session);
      return;
    }
    if (!this.deps.rowsDocument) throw new AppError('UNREADABLE', `${key} lives inside ${store}, and this app cannot separate its rows from the store's.`);
    const rows = await this.deps.rowsDocument(key);
    const own = { path: rows.path, size: rows.bytes.length, mtimeMs: rows.mtimeMs, role: 'primary' as const };
    await this.store.keep({ ...session, sourceFiles: [own] }, 'kept', new Map([[rows.path, rows.bytes]]));
  }

  /**
   * The session with only the files that pass the roots check: a keep copies those and no other. A file left out
   * is named in the kept session's warnings; a session whose own file is outside every root is not kept at all.
   */
  private async insideRoots(session: Session): Promise<Session> {
    const { inside, outside } = await this.deps.files.partition(session.sourceFiles.map((f) => f.path));
    const primary = session.sourceFiles[0];
    if (primary && !inside.has(primary.path)) {
      throw new AppError('OUTSIDE_ROOTS', `Refusing to keep ${primary.path}: it is outside every known session folder.`);
    }
    if (!outside.length) return session;
    return {
      ...session,
      sourceFiles: session.sourceFiles.filter((f) => inside.has(f.path)),
      artifacts: session.artifacts.map((a) => (a.resolvedPath && !inside.has(a.resolvedPath) ? { ...a, resolvedPath: null } : a)),
      warnings: [...session.warnings, ...outside.map((o) => ({ code: 'outside_roots', message: `${o.path} ${o.reason}; it was not kept.`, count: 1 }))],
    };
  }

  /** An auto-keep sweep in the background (AutoKeep.inBackground): after a scan, on a timer, when auto-keep is turned on. */
  sweepInBackground(): void {
    this.autoKeep.inBackground();
  }

  /** No auto-keep sweep starts after this; resolves when the one running is over. */
  close(): Promise<void> {
    return this.autoKeep.close();
  }

  async prune(olderThanDays: number, dryRun: boolean) {
    const cutoff = Date.now() - olderThanDays * 86_400_000;
    const victims = (await this.store.list()).filter((k) => {
      const t = Date.parse(k.meta.sessionTime ?? k.meta.keptAt);
      return !Number.isNaN(t) && t < cutoff;
    });
    if (!dryRun) {
      for (const v of victims) await this.trashFolder(v.dir, v.meta.key, v.meta.title);
      if (victims.length) await this.deps.rescanVault();
    }
    return {
      dryRun,
      olderThanDays,
      sessions: victims.map((v) => ({ key: v.meta.key, title: v.meta.title, at: v.meta.sessionTime ?? v.meta.keptAt })),
    };
  }

  private async trashFolder(dir: string, key: string, title: string): Promise<TrashEntry> {
    if (this.deps.host?.trashItem) {
      await this.deps.host.trashItem(dir);
      return { id: dir, key, title, deletedAt: new Date().toISOString(), where: 'os-trash' };
    }
    return this.trash.put(dir, key, title);
  }

  /**
   * Everything is checked before anything is moved: a delete that is refused (a file that is not the session's,
   * or one outside every root) leaves the kept copy, the fork and every source file where they were.
   */
  async delete(key: string, confirmSourceFiles: string[] | undefined) {
    const entry = this.entry(key);
    const kept = await this.store.get(key);
    // A fork lives only in the vault: its folder is the session.
    const ownedFolder = this.kindOf(entry.path) === 'owned' ? join(entry.path, '..') : null;
    let confirmed: string[] = [];
    if (entry.store && this.kindOf(entry.path) === null && (confirmSourceFiles?.length || !kept)) {
      // The store is the agent's, shared by every one of its sessions: deleting its file would delete them all.
      throw new AppError(
        'INVALID_INPUT',
        `This session lives in ${entry.store} together with every other session of its agent; Session Vault never deletes that file. Delete the session in the agent itself${kept ? '' : ', or keep it first and delete the kept copy'}.`,
        'confirmSourceFiles',
      );
    }
    if (ownedFolder) {
      await this.deps.files.assertInside(ownedFolder, 'delete');
    } else if (confirmSourceFiles?.length) {
      // Live sources are the user's tool's files: only the exact files the user confirmed, nothing else.
      const session = await this.deps.readFull(key);
      const own = new Set(session.sourceFiles.map((f) => f.path));
      const stray = confirmSourceFiles.filter((f) => !own.has(f));
      if (stray.length) throw new AppError('INVALID_INPUT', `Not a source file of this session: ${stray[0]}`, 'confirmSourceFiles');
      await this.deps.files.assertAllInside(confirmSourceFiles, 'delete');
      confirmed = confirmSourceFiles;
    } else if (!kept) {
      throw new AppError(
        'INVALID_INPUT',
        'This session is not in the vault; to delete its source files, list them in confirmSourceFiles.',
        'confirmSourceFiles',
      );
    }
    const trashed: TrashEntry[] = [];
    if (kept) trashed.push(await this.trashFolder(kept.dir, key, kept.meta.title));
    if (ownedFolder) trashed.push(await this.trashFolder(ownedFolder, key, entry.summary.title));
    const sourceFilesDeleted: string[] = [];
    for (const f of confirmed) {
      if (this.deps.host?.trashItem) await this.deps.host.trashItem(f);
      else await rm(f, { force: true });
      sourceFilesDeleted.push(f);
    }
    await this.deps.rescanVault();
    return { trashed, sourceFilesDeleted };
  }

  /** Opens a terminal running the resume command in the project folder; refused (with resume's own reason) when resume is not offered. */
  async resumeInTerminal(key: string): Promise<{ terminal: string }> {
    const info = await resumeInfo(this.entry(key).summary);
    if (!info.available || !info.command || !info.cwd) throw new AppError('CONFLICT', info.reason ?? 'This session cannot be resumed.');
    const plan = terminalPlan(info.cwd, info.command, { platform: process.platform, env: process.env, onPath: (p) => isOnPath(p) });
    if ('error' in plan) throw new AppError('CONFLICT', plan.error);
    try {
      await launchTerminal(plan, info.cwd);
    } catch (err) {
      throw new AppError('IO_ERROR', `${(err as Error).message}; copy the command instead.`);
    }
    return { terminal: plan.name };
  }

  async clear(): Promise<number> {
    const all = await this.store.list();
    for (const k of all) await this.trashFolder(k.dir, k.meta.key, k.meta.title);
    let forks = 0;
    for (const e of [...this.deps.catalogue.entries()]) {
      if (this.kindOf(e.path) === 'owned') {
        await this.trashFolder(join(e.path, '..'), e.key, e.summary.title);
        forks++;
      }
    }
    await this.deps.rescanVault();
    return all.length + forks;
  }

  async setSettings(change: Partial<VaultSettings>): Promise<VaultSettings> {
    // A setting given as undefined (an IPC caller can send that) leaves it as it is.
    if (change.autoKeep !== undefined) this.settings = { ...this.settings, autoKeep: change.autoKeep };
    await writeFileAtomic(this.settingsFile, `${JSON.stringify(this.settings, null, 2)}\n`);
    this.sweepInBackground();
    return this.settings;
  }

  methods(): Pick<ServiceMethods, VaultMethodNames | SummaryMethodNames> {
    return {
      ...this.summaries.methods(),
      getVaultStatus: async ({ key }) => this.status(key),
      keepSession: async ({ key }) => this.keep(key),
      setAnnotations: async ({ key, ...change }) => {
        this.entry(key);
        return this.annotations.set(key, change);
      },
      forkSession: async ({ key, throughMessage }) => {
        const { id, path } = await forkSession(await this.deps.readFull(key), throughMessage, this.forksDir);
        await this.deps.rescanVault();
        return { key: `vizier:${id}`, path };
      },
      getResumeInfo: async ({ key }) => resumeInfo(this.entry(key).summary),
      resumeInTerminal: async ({ key }) => this.resumeInTerminal(key),
      pruneVault: async ({ olderThanDays, dryRun }) => this.prune(olderThanDays, dryRun),
      deleteSession: async ({ key, confirmSourceFiles }) => this.delete(key, confirmSourceFiles),
      listTrash: async () => this.trash.list(),
      restoreSession: async ({ id }) => {
        const { key } = await this.trash.restore(id);
        await this.deps.rescanVault();
        return { key };
      },
      clearVault: async () => ({ cleared: await this.clear() }),
      getVaultSettings: async () => this.settings,
      setVaultSettings: async (change) => this.setSettings(change),
    };
  }
}
