// The app's Team source: a team store set in the app (its URL, token, machine label, auto-push), its sessions for the list, and pushes from this machine.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { AppEvent, ServiceMethods } from '../../shared/api.ts';
import { AppError } from '../../shared/result.ts';
import type { TeamPushResult, TeamStatus } from '../../shared/team-api.ts';
import type { ClosableLoader } from '../bundle/worker-loader.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { currentAccount } from './accounts.ts';
import { PushLedger } from './push-ledger.ts';
import { connectTeam, describeTeamError } from './team-connection.ts';
import { resolveTeamTarget, scrubMessage, type TeamTarget } from './team-credentials.ts';
import type { TeamServices } from './team-services.ts';

export type TeamMethodNames = 'getTeamStatus' | 'setTeamSettings' | 'listTeamSessions' | 'pushToTeam';

export interface TeamSourceDeps {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** What a push reads sessions through: the bundles' loader (a worker of its own, the roots check), as Share. */
  openLoader(): ClosableLoader;
  /** The catalogue's listing of each of these sessions as text (what tells the push ledger a session did not change). */
  listings(keys: string[]): Promise<Map<string, string>>;
  emit(event: AppEvent): void;
  /** How long after a session changes auto-push sends it (default a minute: a live session changes every few seconds). */
  autoPushDelayMs?: number;
}

interface Settings {
  store: string | null;
  machine: string;
  autoPush: boolean;
}

/** Each session's listing (its summary as JSON), asked of the list a thousand keys at a time. */
export async function listingsOf(keys: string[], listSessions: ServiceMethods['listSessions']): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < keys.length; i += 1000) {
    const { sessions } = await listSessions({ keys: keys.slice(i, i + 1000), includeChildren: true });
    for (const s of sessions) out.set(s.key, JSON.stringify(s));
  }
  return out;
}

/** This computer's host name as a machine label. */
export function defaultMachine(): string {
  return (
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 63) || 'this-machine'
  );
}

/**
 * Kept in `<data dir>/team/`: settings.json (the URL without its password, the machine label, auto-push) and
 * token (the account's token, readable by this user alone, like ~/.pgpass; never sent back to a window). Reading
 * goes through a read-only pool (the same methods `serve --team` answers with); each push opens a connection of its
 * own, as the CLI's, and resumes by itself after a dropped connection.
 */
export class TeamSource {
  private readonly deps: TeamSourceDeps;
  private readonly dir: string;
  private settings: Settings = { store: null, machine: defaultMachine(), autoPush: false };
  private loaded: Promise<void> | null = null;
  private reading: Promise<TeamServices> | null = null;
  private unsubscribe: (() => void) | null = null;
  private account: { name: string; role: TeamStatus['role'] } | null = null;
  private error: string | null = null;
  private lastPush: TeamStatus['lastPush'] = null;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private pushing: Promise<unknown> = Promise.resolve();

  constructor(deps: TeamSourceDeps) {
    this.deps = deps;
    this.dir = join(deps.dataDir, 'team');
  }

  private get tokenFile(): string {
    return join(this.dir, 'token');
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      try {
        const saved = JSON.parse(await readFile(join(this.dir, 'settings.json'), 'utf8')) as Partial<Settings>;
        this.settings = {
          store: typeof saved.store === 'string' ? saved.store : null,
          machine: typeof saved.machine === 'string' && saved.machine ? saved.machine : defaultMachine(),
          autoPush: saved.autoPush === true,
        };
      } catch {
        // none yet: no store
      }
    })();
    return this.loaded;
  }

  /** The store as set, with the kept token as its password file (over the environment's), or null when none is set. */
  private target(): TeamTarget | null {
    if (!this.settings.store) return null;
    const env = existsSync(this.tokenFile) ? { ...this.deps.env, SESSION_VAULT_TEAM_PASSWORD_FILE: this.tokenFile } : this.deps.env;
    return resolveTeamTarget(this.settings.store, env);
  }

  private requireTarget(): TeamTarget {
    const target = this.target();
    if (!target)
      throw new AppError('INVALID_INPUT', 'No team store is set: give its URL (postgresql://user@host:5432/database) in the Team settings.', 'store');
    return target;
  }

  private plain(err: unknown, target: TeamTarget | null): string {
    return scrubMessage(describeTeamError(err, target ?? undefined), [target?.password, this.deps.env.PGPASSWORD]);
  }

  /** The read side, opened once (and again after a failure or a change of store). */
  private services(): Promise<TeamServices> {
    this.reading ??= (async () => {
      const target = this.requireTarget();
      // The read side (and the pg driver) is loaded only when a team store is read: never by a command that lists.
      const { openTeamServices } = await import('./team-services.ts');
      const team = await openTeamServices(target, this.deps.dataDir, this.deps.env).catch((err: unknown) => {
        throw new AppError('IO_ERROR', this.plain(err, target));
      });
      this.unsubscribe = team.subscribe(this.deps.emit);
      return team;
    })();
    this.reading.catch(() => (this.reading = null));
    return this.reading;
  }

  /** The read methods over the store: what team keys (`<machine>/<key>`) are answered by. */
  async readMethods(): Promise<ServiceMethods> {
    await this.load();
    return (await this.services()).methods;
  }

  private async closeReader(): Promise<void> {
    const reading = this.reading;
    this.reading = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    const team = await reading?.catch(() => null);
    await team?.close();
  }

  async status(): Promise<TeamStatus> {
    await this.load();
    const target = (() => {
      try {
        return this.target();
      } catch (err) {
        this.error = (err as Error).message;
        return null;
      }
    })();
    if (target && !this.account) {
      try {
        const conn = await connectTeam(target);
        try {
          const account = await currentAccount(conn.client);
          this.account = account ? { name: account.name, role: account.role } : null;
          this.error = account
            ? account.revoked
              ? `The account "${account.name}" was revoked.`
              : null
            : 'This database user has no account in the team store; ask its owner to add one.';
        } finally {
          await conn.close();
        }
      } catch (err) {
        this.error = this.plain(err, target);
      }
    }
    return {
      store: target?.shown ?? this.settings.store,
      machine: this.settings.machine,
      autoPush: this.settings.autoPush,
      hasToken: existsSync(this.tokenFile),
      account: this.account?.name ?? null,
      role: this.account?.role ?? null,
      error: this.settings.store ? this.error : null,
      lastPush: this.lastPush,
      served: false,
    };
  }

  async setSettings(input: { store?: string | null; token?: string; machine?: string; autoPush?: boolean }): Promise<TeamStatus> {
    await this.load();
    const next = { ...this.settings };
    if (input.store !== undefined) {
      if (input.store !== null) resolveTeamTarget(input.store.trim(), {}); // a URL with a password in it is refused here, before anything is kept
      next.store = input.store === null ? null : input.store.trim();
    }
    if (input.machine !== undefined) next.machine = input.machine;
    if (input.autoPush !== undefined) next.autoPush = input.autoPush;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    if (input.store === null) await rm(this.tokenFile, { force: true });
    if (input.token !== undefined) {
      await rm(this.tokenFile, { force: true });
      await writeFile(this.tokenFile, input.token, { mode: 0o600, flag: 'wx' });
    }
    await writeFileAtomic(join(this.dir, 'settings.json'), JSON.stringify(next));
    const reconnect = next.store !== this.settings.store || input.token !== undefined;
    this.settings = next;
    if (reconnect) {
      this.account = null;
      this.error = null;
      await this.closeReader();
    }
    if (!next.autoPush) this.cancelAutoPush();
    return this.status();
  }

  async list(query: string, limit: number, offset: number) {
    const methods = await this.readMethods();
    const found = await methods.searchSessions({ query, limit, offset });
    return {
      sessions: found.results.map((r) => r.summary),
      matches: found.results.map((r) => ({ snippet: r.snippet, messageIndex: r.messageIndex })),
      total: found.total,
      ...(found.totalCapped ? { totalCapped: true } : {}),
      problems: found.problems,
    };
  }

  /** Pushes `keys` as this machine; new sessions only with `confirm` (else held, with their findings for the review). */
  async push(keys: string[], confirm: boolean, keep: string[]): Promise<TeamPushResult> {
    await this.load();
    const target = this.requireTarget();
    const machine = this.settings.machine;
    const run = async (): Promise<TeamPushResult> => {
      const listings = await this.deps.listings(keys);
      const ledger = await PushLedger.open(this.deps.dataDir, target.shown, machine);
      const loader = this.deps.openLoader();
      try {
        const { pushResuming } = await import('./push-resume.ts');
        const report = await pushResuming(
          { machine, keys, loader, env: this.deps.env, keep, newSessions: confirm ? 'push' : 'hold', ledger, listing: (k) => listings.get(k) },
          { connect: () => connectTeam(target) },
        );
        this.lastPush = { at: new Date().toISOString(), pushed: report.pushed.length, unchanged: report.unchanged.length, held: report.held, error: null };
        return {
          pushed: report.pushed,
          unchanged: report.unchanged,
          held: report.held,
          skipped: report.skipped,
          findings: report.findings,
          bytes: report.bytes,
        };
      } catch (err) {
        const message = this.plain(err, target);
        this.lastPush = { at: new Date().toISOString(), pushed: 0, unchanged: 0, held: [], error: message };
        throw new AppError(err instanceof AppError ? err.code : 'IO_ERROR', message);
      } finally {
        await loader.close();
      }
    };
    // One push at a time (auto-push and the user's): the ledger and the store's batches stay in order.
    const result = this.pushing.then(run, run);
    this.pushing = result.catch(() => undefined);
    return result;
  }

  /**
   * Sessions that changed on disk: with auto-push on, they are pushed a while after the last change (sessions the
   * store does not have yet are held for their review, never sent on their own).
   */
  noteChanged(keys: string[]): void {
    if (!this.settings.autoPush || !this.settings.store || !keys.length) return;
    for (const k of keys) this.pending.add(k);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const batch = [...this.pending];
      this.pending.clear();
      void this.push(batch, false, []).catch(() => undefined);
    }, this.deps.autoPushDelayMs ?? 60_000);
    this.timer.unref?.();
  }

  private cancelAutoPush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }

  methods(): Pick<ServiceMethods, TeamMethodNames> {
    return {
      getTeamStatus: () => this.status(),
      setTeamSettings: async (input) => {
        try {
          return await this.setSettings(input);
        } catch (err) {
          if (err instanceof AppError) throw err;
          throw new AppError('INVALID_INPUT', (err as Error).message, 'store');
        }
      },
      listTeamSessions: ({ query, limit, offset }) => this.list(query, limit, offset),
      pushToTeam: ({ keys, confirm, keep }) => this.push(keys, confirm, keep),
    };
  }

  async close(): Promise<void> {
    this.cancelAutoPush();
    await this.pushing;
    await this.closeReader();
  }
}
