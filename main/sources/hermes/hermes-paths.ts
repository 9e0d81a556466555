// Where Hermes keeps sessions: a home (~/.hermes, HERMES_HOME, or a profile under <home>/profiles/) with state.db and sessions/.
import { basename, dirname, join, resolve } from 'node:path';

/** `session_<id>.json` (the CLI's session log, one document) or `<id>.jsonl` (the gateway's transcript, a line per message). */
const TRANSCRIPT = /^session_(.+)\.json$|^(.+)\.jsonl$/;

/** HERMES_HOME as ccusage reads it: one folder, or several separated by commas. */
export function hermesHomes(env: NodeJS.ProcessEnv, home: string): string[] {
  const listed = (env.HERMES_HOME ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => resolve(p));
  return listed.length ? listed : [join(home, '.hermes')];
}

let envText: string | undefined;
let envHomes = new Set<string>();

/** The HERMES_HOME folders of this process, re-read when the variable changes. */
function overrideHomes(): Set<string> {
  const text = process.env.HERMES_HOME;
  if (text !== envText) {
    envText = text;
    envHomes = new Set(text ? hermesHomes({ HERMES_HOME: text }, '') : []);
  }
  return envHomes;
}

/** A Hermes home: a `.hermes` folder, a HERMES_HOME folder, or a profile (`<home>/profiles/<name>`) of either. */
function isHermesHome(dir: string): boolean {
  const isTop = (d: string) => basename(d) === '.hermes' || overrideHomes().has(d);
  return isTop(dir) || (basename(dirname(dir)) === 'profiles' && isTop(dirname(dirname(dir))));
}

/** `<home>/state.db` (the store) and `<home>/sessions/session_<id>.json` or `<id>.jsonl` (the transcripts); nothing else there. */
export function claimsHermes(absPath: string): boolean {
  const name = basename(absPath);
  const dir = dirname(absPath);
  if (name === 'state.db') return isHermesHome(dir);
  return TRANSCRIPT.test(name) && basename(dir) === 'sessions' && isHermesHome(dirname(dir));
}

export function isTranscriptPath(absPath: string): boolean {
  return TRANSCRIPT.test(basename(absPath));
}

/** The session id a transcript's file name carries (`session_<id>.json`, `<id>.jsonl`), which is how the store names it too. */
export function transcriptId(absPath: string): string {
  const found = TRANSCRIPT.exec(basename(absPath));
  return found?.[1] ?? found?.[2] ?? basename(absPath);
}

/** A transcript written a message per line (`<id>.jsonl`). */
export function isLineTranscript(absPath: string): boolean {
  return absPath.endsWith('.jsonl');
}

/** The Hermes home a transcript belongs to, and the store in it. */
export function homeOfTranscript(absPath: string): string {
  return dirname(dirname(absPath));
}
