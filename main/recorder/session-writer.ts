// One open session being recorded: append, record operations, checkpoint crash-safely, close write-once.
import { readFile, stat } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { ArtifactFolder, byteLength } from './artifacts.ts';
import type { SessionLock } from './lock.ts';
import { Redactor, redactRulesOf } from './redact.ts';
import type { MessageInput, OperationInput, OutcomeInput, RecordingSession, WriterLimits } from './recording-session.ts';
import { ChatMessage, Operation, Outcome, type ConfigValue, type ProvenanceName, type SessionDocument } from './session-schema.ts';
import { parseSessionBytes, type SessionPaths } from './session-files.ts';
import { serializeWithinLimit, spillAnnotations, spillContent, spillDetail } from './spill.ts';
import { StoreError } from './store-error.ts';
import type { MonotonicClock } from './timestamps.ts';

function invalid(what: string, problems: { path: PropertyKey[]; message: string }[]): StoreError {
  const list = problems.map((p) => `${p.path.length ? `${p.path.join('.')}: ` : ''}${p.message}`).join('; ');
  return new StoreError('invalid_input', `Invalid ${what}: ${list}.`);
}

export interface WriterInit {
  doc: SessionDocument;
  paths: SessionPaths;
  lock: SessionLock;
  clock: MonotonicClock;
  redactor: Redactor;
  /** For rebuilding the redactor when the session's `redact` setting changes. */
  env: NodeJS.ProcessEnv;
  resumed: boolean;
  autoCheckpoint: boolean;
  limits: WriterLimits;
}

export class SessionWriter implements RecordingSession {
  readonly enabled = true;
  readonly resumed: boolean;
  private doc: SessionDocument;
  private readonly paths: SessionPaths;
  private readonly lock: SessionLock;
  private readonly clock: MonotonicClock;
  private redactor: Redactor;
  private readonly env: NodeJS.ProcessEnv;
  private readonly artifacts: ArtifactFolder;
  private autoCheckpoint: boolean;
  private readonly limits: WriterLimits;
  private state: 'open' | 'closed' | 'released' = 'open';
  private queue: Promise<unknown> = Promise.resolve();
  /** What this writer last saw on disk, to notice anyone else touching the file. */
  private disk: { mtimeMs: number; size: number; updatedAt: string } | null = null;

  constructor(init: WriterInit) {
    this.doc = init.doc;
    this.paths = init.paths;
    this.lock = init.lock;
    this.clock = init.clock;
    this.redactor = init.redactor;
    this.env = init.env;
    this.resumed = init.resumed;
    this.autoCheckpoint = init.autoCheckpoint;
    this.limits = init.limits;
    this.artifacts = new ArtifactFolder(init.paths.dir, init.doc.artifacts);
    this.clock.observe(init.doc.updated_at);
  }

  get id(): string {
    return this.doc.id;
  }

  get path(): string {
    return this.paths.file;
  }

  snapshot(): SessionDocument {
    return structuredClone(this.doc);
  }

  setAutoCheckpoint(on: boolean): void {
    this.autoCheckpoint = on;
  }

  /** Records what is on disk now (after a resume's load, under the lock). */
  async adoptDisk(): Promise<void> {
    const info = await stat(this.paths.file);
    this.disk = { mtimeMs: info.mtimeMs, size: info.size, updatedAt: this.doc.updated_at };
  }

  /** Runs one change at a time, so concurrent calls never interleave checkpoints. */
  private run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(() => {
      if (this.state === 'closed') throw new StoreError('session_closed', `Session ${this.id} is closed; closed sessions are write-once.`);
      if (this.state === 'released') throw new StoreError('invalid_input', `Session ${this.id} was released by this writer; open it again to record more.`);
      return fn();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  append(input: MessageInput): Promise<void> {
    return this.run(async () => {
      const ts = input.ts ?? this.clock.next();
      const message: ChatMessage = { role: input.role, content: await this.redactor.text(input.content), ts };
      if (input.annotations !== undefined) message.annotations = await this.redactor.value(input.annotations);
      const parsed = ChatMessage.safeParse(message);
      if (!parsed.success) throw invalid('message', parsed.error.issues);
      this.doc.chat.push(message);
      const index = this.doc.chat.length - 1;
      if (byteLength(message.content) > this.limits.inlineBytes) await spillContent(this.doc, this.artifacts, index);
      if (message.annotations && byteLength(message.annotations) > this.limits.inlineBytes) await spillAnnotations(this.doc, this.artifacts, index);
      if (this.autoCheckpoint) await this.write();
    });
  }

  recordOperation(input: OperationInput): Promise<void> {
    return this.run(async () => {
      await this.pushOperation(input);
      if (this.autoCheckpoint) await this.write();
    });
  }

  private async pushOperation(input: OperationInput): Promise<void> {
    const staged = input.vcs?.staged ?? {};
    const op: Operation = {
      type: input.type,
      detail: await this.redactor.value(input.detail ?? ''),
      vcs: { staged: { A: staged.A ?? [], M: staged.M ?? [], D: staged.D ?? [], R: staged.R ?? [] } },
      ts: input.ts ?? this.clock.next(),
    };
    if (input.vcs?.applied_sha !== undefined) op.vcs.applied_sha = input.vcs.applied_sha;
    if (input.vcs?.restored_sha !== undefined) op.vcs.restored_sha = input.vcs.restored_sha;
    const parsed = Operation.safeParse(op);
    if (!parsed.success) throw invalid('operation', parsed.error.issues);
    this.doc.operations.push(op);
    if (byteLength(op.detail) > this.limits.inlineBytes) await spillDetail(this.doc, this.artifacts, this.doc.operations.length - 1);
  }

  attach(name: string, content: string): Promise<string> {
    return this.run(async () => {
      const rel = await this.artifacts.write(name, await this.redactor.text(content));
      this.doc.artifacts.push(rel);
      if (this.autoCheckpoint) await this.write();
      return rel;
    });
  }

  /** Changes one config key mid-session (a config_change operation); keys set on the command line are locked. */
  setConfig(key: string, value: unknown, provenance: ProvenanceName = 'session'): Promise<void> {
    return this.run(async () => {
      if (await this.applyConfig({ [key]: { value, provenance } }, false)) {
        if (this.autoCheckpoint) await this.write();
      }
    });
  }

  /**
   * Merges config entries into config_effective. Changing a key whose provenance is CLI is refused;
   * with `onlyExplicit` (a resume), defaults and profile values never replace what the session recorded.
   * Returns whether anything changed; the caller writes the checkpoint.
   */
  async applyConfig(entries: Record<string, ConfigValue>, onlyExplicit: boolean): Promise<boolean> {
    let changed = false;
    for (const [key, entry] of Object.entries(entries)) {
      const value = await this.redactor.value(entry.value);
      const current = this.doc.config_effective[key];
      if (current && isDeepStrictEqual(current.value, value)) continue;
      if (current && onlyExplicit && (entry.provenance === 'default' || entry.provenance === 'profile')) continue;
      if (current?.provenance === 'CLI') {
        throw new StoreError(
          'config_locked',
          `Config key "${key}" was set on the command line when session ${this.id} started (${JSON.stringify(current.value)}) and cannot be changed to ${JSON.stringify(value)}.`,
          key,
        );
      }
      this.doc.config_effective[key] = { value, provenance: entry.provenance };
      this.syncModel(key, value);
      if (key === 'redact') this.redactor = new Redactor(redactRulesOf(value), this.env);
      changed = true;
      await this.pushOperation({ type: 'config_change', detail: { key, from: current?.value ?? null, to: value, provenance: entry.provenance } });
    }
    return changed;
  }

  /** `model.*` config keys and the model block describe the same thing; keep them in step. */
  private syncModel(key: string, value: unknown): void {
    const field = key.startsWith('model.') ? key.slice('model.'.length) : null;
    if (field === 'provider' || field === 'name' || field === 'thinking_level') this.doc.model[field] = typeof value === 'string' ? value : null;
    if (field === 'temperature') this.doc.model.temperature = typeof value === 'number' ? value : null;
  }

  checkpoint(): Promise<void> {
    return this.run(() => this.write());
  }

  close(input: OutcomeInput): Promise<void> {
    return this.run(async () => {
      const outcome: Outcome = { status: input.status };
      if (input.summary !== undefined) outcome.summary = await this.redactor.text(input.summary);
      if (input.commit_sha !== undefined) outcome.commit_sha = input.commit_sha;
      const parsed = Outcome.safeParse(outcome);
      if (!parsed.success || outcome.status === 'open') {
        throw invalid(
          'outcome',
          parsed.success ? [{ path: ['status'], message: 'a session is closed as accepted, rejected or aborted' }] : parsed.error.issues,
        );
      }
      const before = this.doc.outcome;
      this.doc.outcome = outcome;
      try {
        await this.write();
      } catch (err) {
        this.doc.outcome = before;
        throw err;
      }
      this.state = 'closed';
      await this.lock.release();
    });
  }

  release(): Promise<void> {
    return this.run(async () => {
      this.state = 'released';
      await this.lock.release();
    });
  }

  /** Someone else wrote or closed the file since we last did: never overwrite their work. */
  private async checkDisk(): Promise<void> {
    let info;
    try {
      info = await stat(this.paths.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (this.disk === null) return;
      throw new StoreError('session_not_found', `${this.paths.file} was removed while session ${this.id} was being recorded; nothing was written.`);
    }
    if (this.disk && info.mtimeMs === this.disk.mtimeMs && info.size === this.disk.size) return;
    const onDisk = parseSessionBytes(await readFile(this.paths.file), this.paths.file);
    if (onDisk.outcome.status !== 'open') {
      throw new StoreError('session_closed', `Session ${this.id} was closed (${onDisk.outcome.status}) by another writer; closed sessions are write-once.`);
    }
    if (onDisk.updated_at !== this.disk?.updatedAt) {
      throw new StoreError('lock_lost', `Session ${this.id} was changed by another writer (updated ${onDisk.updated_at}); nothing was written.`);
    }
  }

  /** The checkpoint protocol: temp file, fsync, validate the bytes read back, rename, fsync the folder. */
  private async write(): Promise<void> {
    const previous = this.doc.updated_at;
    this.doc.updated_at = this.clock.next();
    try {
      const text = await serializeWithinLimit(this.doc, this.artifacts, this.limits.fileBytes);
      await this.lock.confirm(this.id);
      await this.checkDisk();
      await writeFileAtomic(this.paths.file, text, {
        tmpPath: this.paths.tmp,
        verify: (bytes) => {
          if (bytes.length >= this.limits.fileBytes) throw new StoreError('too_large', `${this.paths.tmp} is ${bytes.length} bytes; not renamed.`);
          const back = parseSessionBytes(bytes, this.paths.tmp);
          if (back.updated_at !== this.doc.updated_at)
            throw new StoreError('invalid_session', `${this.paths.tmp} does not hold the checkpoint just written; not renamed.`);
        },
      });
    } catch (err) {
      this.doc.updated_at = previous;
      throw err;
    }
    const info = await stat(this.paths.file);
    this.disk = { mtimeMs: info.mtimeMs, size: info.size, updatedAt: this.doc.updated_at };
  }
}
