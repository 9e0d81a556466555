// Conformance over the sample corpus (samples/): every session file is claimed (by path or content) by exactly one reader and reads.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isShadowedTwin } from '../catalogue/walk-rules.ts';
import { Session } from '../../shared/session.ts';
import { readers } from './registry.ts';
import { resolveReader } from './recognize.ts';
import { readHead } from './head.ts';
import { outsideLayout } from '../library/outside-layout.ts';
import { UnreadableError } from './types.ts';
import { samplesDir } from '../test-support/samples.ts';
import { SAMPLE_SESSION_FORMATS as SESSION_FORMATS } from '../test-support/sample-roles.ts';

interface ManifestFile {
  path: string;
  format: string;
  notes: string;
}

/** Files that belong to a session but are not one (read through their session), or are not sessions at all. */
const NOT_SESSIONS = new Set([
  'ai-viewer expected.jsonl (normalized events)',
  'claude-code sub-agent meta',
  'projecthub transcript backup (Claude Code JSONL)',
  'projecthub SQLite index (sessions table)',
  'ai-agent v2 orphan temp file',
  'ai-agent accounting ledger (JSONL)',
  'vizier artifact (unified diff)',
  'vizier checkpoint temp file',
  // Agents added by issue #22: their companion files (metadata read through a session), one line each.
  // opencode
  'opencode storage migration marker',
  'opencode storage message JSON',
  'opencode storage part JSON',
  // copilot-cli
  // cursor
  'cursor chats store.db (SQLite)',
  // kimi
  'kimi-cli state.json',
  'kimi-code session state.json',
  // grok
  'grok chat_history.jsonl',
  'grok chat_history.jsonl (sub-agent session)',
  'grok signals.json',
  // cline, roo-code
  'cline task_metadata.json',
  'roo-code history_item.json',
  // codebuff
  'codebuff run-state.json',
  'codebuff chat-meta.json',
  // vibe
  'vibe meta.json',
  // kilo
  'kilo storage message JSON (OpenCode layout)',
  'kilo storage part JSON (OpenCode layout)',
  // antigravity
  'antigravity brain artifact (Markdown)',
]);

/**
 * Files a reader claims that the walk leaves to a holder twin lying beside them (catalogue/walk-rules.ts), with that
 * reader: each is the session's file only when its holder is gone.
 */
const SHADOWED_TWINS: Record<string, string> = {
  // kimi: an older kimi-cli session folder holds its wire alone.
  'kimi-cli wire.jsonl': 'kimi',
  // cline, roo-code: a task whose api_conversation_history.json is gone shows its UI messages.
  'cline ui_messages.json': 'cline',
  'roo-code ui_messages.json': 'roo-code',
};

/**
 * Agents whose files the corpus holds but no reader reads yet (issue #22 adds their readers). Until then no
 * reader may claim them, so none of them is misread as another agent's session.
 */
const AGENTS_NOT_READ_YET: string[] = [];

/** Files outside any tool's layout: no path rule claims them; recognition by content finds each one's format. */
const LOOSE = 'loose/';

const manifest = (JSON.parse(readFileSync(join(samplesDir, 'manifest.json'), 'utf8')) as { files: ManifestFile[] }).files;
const notReadYet = (f: ManifestFile) => AGENTS_NOT_READ_YET.includes(f.path.split('/')[0]!);
const inLayout = manifest.filter((f) => !f.path.startsWith('malformed/') && !f.path.startsWith(LOOSE) && !notReadYet(f));

describe('every sample in samples/', () => {
  it('has a known role: session file, or a file that is not a session', () => {
    const unknown = inLayout.filter((f) => !(f.format in SESSION_FORMATS) && !NOT_SESSIONS.has(f.format) && !(f.format in SHADOWED_TWINS));
    expect(unknown.map((f) => `${f.path} (${f.format})`)).toEqual([]);
  });

  it.each(manifest.filter(notReadYet).map((f) => [f.path]))('%s is claimed and recognised by no reader (yet)', async (path) => {
    const abs = join(samplesDir, path);
    expect(readers.filter((r) => r.claims(abs)).map((r) => r.format)).toEqual([]);
    expect((await resolveReader(abs))?.format).toBeUndefined();
  });

  it.each(manifest.filter((f) => f.path.startsWith(LOOSE)).map((f) => [f.path, SESSION_FORMATS[f.format]!]))(
    '%s lies outside every layout and is recognised by its content as %s, reading into a valid session',
    async (path, format) => {
      const abs = join(samplesDir, path);
      expect(readers.filter((r) => r.claims(abs)).map((r) => r.format)).toEqual([]);
      const reader = await resolveReader(abs);
      expect(reader?.format).toBe(format);
      const session = await reader!.read(abs);
      expect(() => Session.parse(session)).not.toThrow();
      expect(session.format).toBe(format);
      expect(session.key.startsWith(`${format}:`)).toBe(true);
      // Keyed by its path too, so the tool's own file of the same session keeps the plain key.
      expect(outsideLayout(abs, session.key)).toBe(true);
      expect(session.messages.length + session.operations.length).toBeGreaterThan(0);
    },
  );

  it.each(inLayout.filter((f) => NOT_SESSIONS.has(f.format)).map((f) => [f.path]))('%s is not claimed or recognised as a session', async (path) => {
    const abs = join(samplesDir, path);
    expect(readers.filter((r) => r.claims(abs)).map((r) => r.format)).toEqual([]);
    expect((await resolveReader(abs))?.format).toBeUndefined();
  });

  it.each(inLayout.filter((f) => f.format in SHADOWED_TWINS).map((f) => [f.path, SHADOWED_TWINS[f.format]!]))(
    '%s is claimed by the %s reader and left to the holder twin beside it',
    (path, format) => {
      const abs = join(samplesDir, path);
      expect(readers.filter((r) => r.claims(abs)).map((r) => r.format)).toEqual([format]);
      const besides = new Set(readdirSync(dirname(abs)));
      expect(isShadowedTwin(basename(abs), (name) => besides.has(name), dirname(abs))).toBe(true);
    },
  );

  /** Session files whose head no reader can tell: gzipped snapshots, a rollout from before the envelope, and SQLite stores (binary). */
  const unrecognisable = (f: ManifestFile) => f.path.endsWith('.gz') || /schema drift/.test(f.notes) || /\(SQLite\b/.test(f.format);
  it.each(
    inLayout
      .filter((f) => f.format in SESSION_FORMATS && !unrecognisable(f) && readers.find((r) => r.format === SESSION_FORMATS[f.format])?.recognizes)
      .map((f) => [f.path, SESSION_FORMATS[f.format]!]),
  )('%s is recognised from its head by exactly the %s reader', async (path, format) => {
    const head = await readHead(join(samplesDir, path));
    expect(readers.filter((r) => r.recognizes?.(head)).map((r) => r.format)).toEqual([format]);
  });

  it.each(inLayout.filter((f) => f.format in SESSION_FORMATS).map((f) => [f.path, SESSION_FORMATS[f.format]!]))(
    '%s is claimed by exactly the %s reader and reads into a valid session',
    async (path, format) => {
      const abs = join(samplesDir, path);
      const claimants = readers.filter((r) => r.claims(abs)).map((r) => r.format);
      expect(claimants).toEqual([format]);
      expect(outsideLayout(abs, `${format}:id`)).toBe(false);
      expect((await resolveReader(abs))?.format).toBe(format);
      const reader = readers.find((r) => r.format === format)!;
      try {
        // A store that holds many sessions: every session it lists, each read on its own (as the app lists them).
        const store = reader.container && (reader.container.isStore?.(abs) ?? true) ? reader.container : null;
        const sessions = store ? await Promise.all((await store.list(abs)).map((s) => store.readOne(abs, s.id))) : [await reader.read(abs)];
        expect(sessions.length).toBeGreaterThan(0);
        for (const session of sessions) {
          expect(() => Session.parse(session)).not.toThrow();
          expect(session.format).toBe(format);
          expect(session.key.startsWith(`${format}:`)).toBe(true);
          expect(session.title.length).toBeGreaterThan(0);
          expect(JSON.parse(JSON.stringify(session))).toEqual(session);
        }
      } catch (err) {
        // Only files the manifest itself calls broken may be unreadable, and then with a reason.
        expect(err).toBeInstanceOf(UnreadableError);
        expect(manifestNotes(path)).toMatch(/zero-byte|empty|unsupported|unknown future|truncat/i);
      }
    },
  );
});

function manifestNotes(path: string): string {
  return manifest.find((f) => f.path === path)?.notes ?? '';
}
