// A planted-secrets corpus: every secret type in every place, written in each session format the app reads, from a seeded PRNG.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Prng } from './prng.ts';
import { addIndexRow } from './redaction-formats.ts';
import { sessionFiles } from './redaction-session-files.ts';

export const SECRET_TYPES = [
  'aws-key-id',
  'aws-secret',
  'github-classic',
  'github-fine-grained',
  'anthropic',
  'openai',
  'stripe',
  'slack',
  'jwt',
  'google-api-key',
  'private-key',
  'db-url',
  'env-password',
  'env-secret',
  'npm',
] as const;
export type SecretType = (typeof SECRET_TYPES)[number];

export const PLACES = ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'file-path', 'title', 'gzip-source', 'base64-payload'] as const;
export type Place = (typeof PLACES)[number];

export const FORMATS = ['claude-code', 'codex', 'gemini', 'ai-agent', 'ai-agent-v3', 'vizier', 'jido-code', 'projecthub'] as const;
export type Format = (typeof FORMATS)[number];

/** One planted secret: `needle` is the part that must not leave (a password, not the URL around it). */
export interface Plant {
  type: SecretType;
  place: Place;
  format: Format;
  needle: string;
}

/** Types that are one token, so they can stand in a file path. */
const TOKEN_TYPES = new Set<SecretType>([
  'aws-key-id',
  'github-classic',
  'github-fine-grained',
  'anthropic',
  'openai',
  'stripe',
  'slack',
  'jwt',
  'google-api-key',
  'npm',
]);

/**
 * Where each format can hold a plant (gzip-source: the whole ai-agent snapshot is gzipped; base64-payload: its captured LLM body).
 * An ai-agent v3 ledger's payload files are not among its source files (never shared), so none is planted there.
 */
const FORMAT_PLACES: Record<Format, Place[]> = {
  'claude-code': ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'file-path', 'title'],
  codex: ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'file-path', 'title'],
  gemini: ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'file-path', 'title'],
  'ai-agent': ['tool-input', 'tool-output', 'file-path', 'gzip-source', 'base64-payload'],
  vizier: ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'title'],
  'jido-code': ['line-start', 'after-tab', 'mid-sentence', 'title'],
  'ai-agent-v3': ['line-start', 'tool-input', 'tool-output', 'file-path', 'title'],
  projecthub: ['line-start', 'after-tab', 'mid-sentence', 'tool-input', 'tool-output', 'file-path', 'title'],
};

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function chars(rng: Prng, count: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[Math.floor(rng.next() * alphabet.length)];
  return out;
}

/** A fresh secret of `type` and the text it is written as (an assignment, a URL, a PEM block). */
export function secretOf(rng: Prng, type: SecretType): { needle: string; written: string } {
  const b64url = `${ALNUM}_-`;
  const token = (needle: string) => ({ needle, written: needle });
  switch (type) {
    case 'aws-key-id':
      return token(`AKIA${chars(rng, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`);
    case 'aws-secret': {
      const needle = chars(rng, 40, `${ALNUM}/+`);
      return { needle, written: `aws_secret_access_key = ${needle}` };
    }
    case 'github-classic':
      return token(`ghp_${chars(rng, 36)}`);
    case 'github-fine-grained':
      return token(`github_pat_${chars(rng, 82, `${ALNUM}_`)}`);
    case 'anthropic':
      return token(`sk-ant-api03-${chars(rng, 93, b64url)}AA`);
    case 'openai':
      return token(`sk-proj-${chars(rng, 74, b64url)}T3BlbkFJ${chars(rng, 74, b64url)}`);
    case 'stripe':
      return token(`sk_live_${chars(rng, 32)}`);
    case 'slack':
      return token(`xoxb-${chars(rng, 12, '0123456789')}-${chars(rng, 13, '0123456789')}-${chars(rng, 24)}`);
    case 'jwt':
      return token(`eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ${chars(rng, 30, b64url)}.${chars(rng, 43, b64url)}`);
    case 'google-api-key':
      return token(`AIza${chars(rng, 35, b64url)}`);
    case 'private-key': {
      const body = Array.from({ length: 4 }, () => chars(rng, 64, `${ALNUM}+/`));
      return { needle: body[1] as string, written: ['-----BEGIN RSA PRIVATE KEY-----', ...body, '-----END RSA PRIVATE KEY-----'].join('\n') };
    }
    case 'db-url': {
      const needle = chars(rng, 18);
      return { needle, written: `postgres://app_user:${needle}@db.internal:5432/prod` };
    }
    case 'env-password': {
      const needle = chars(rng, 20, `${ALNUM}!#%^*-_`);
      return { needle, written: `DB_PASSWORD=${needle}` };
    }
    case 'env-secret': {
      const needle = chars(rng, 32);
      return { needle, written: `SECRET_KEY_BASE=${needle}` };
    }
    case 'npm':
      return token(`npm_${chars(rng, 36)}`);
  }
}

/** The text a place puts around a written secret. */
function around(place: Place, written: string, rng: Prng): string {
  switch (place) {
    case 'line-start':
    case 'gzip-source':
    case 'base64-payload':
      return `Here is what I have:\n${written}\nplease check it`;
    case 'after-tab':
      return `name\tvalue\nprod\t${written}`;
    case 'mid-sentence':
      return `we deploy with ${written} every ${rng.text(20)}`;
    case 'tool-input':
      return `cat <<'EOF' > .env.local\n${written}\nEOF`;
    case 'tool-output':
      return `$ cat config\n${written}\n\texit 0`;
    case 'file-path':
      return `/home/dev/keys/${written}.txt`;
    case 'title':
      return `Set up ${written} for the deploy\nand then run the tests`;
  }
}

/** Where a session puts its plants: text for the prompts and replies, a command, its output and a path, each possibly empty. */
export interface Slots {
  title: string;
  texts: string[];
  toolInput: string;
  toolOutput: string;
  path: string;
  payload: string;
}

function uuid(rng: Prng): string {
  const h = chars(rng, 32, '0123456789abcdef');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Writes the corpus under `root`: per format and secret type, one session holding that type in every place the
 * format has (each plant a fresh secret, so one place's finding cannot help another's). `types` narrows it.
 */
export async function writeRedactionCorpus(
  root: string,
  seed: number,
  types: readonly SecretType[] = SECRET_TYPES,
): Promise<{ plants: Plant[]; files: string[] }> {
  const rng = new Prng(seed);
  const plants: Plant[] = [];
  const files: string[] = [];
  for (const format of FORMATS) {
    for (const type of types) {
      const slots: Slots = { title: '', texts: [], toolInput: '', toolOutput: '', path: '', payload: '' };
      for (const place of FORMAT_PLACES[format]) {
        if (place === 'file-path' && !TOKEN_TYPES.has(type)) continue;
        if (place === 'title' && type === 'private-key') continue; // a title is one line
        const { needle, written } = secretOf(rng, type);
        plants.push({ type, place, format, needle });
        const text = around(place, written, rng);
        if (place === 'title') slots.title = text;
        else if (place === 'tool-input') slots.toolInput = text;
        else if (place === 'tool-output') slots.toolOutput = text;
        else if (place === 'file-path') slots.path = text;
        else if (place === 'base64-payload') slots.payload = text;
        else if (place === 'gzip-source') slots.toolOutput = `${slots.toolOutput}\n${text}`;
        else slots.texts.push(text);
      }
      const id = uuid(rng);
      // ProjectHub keeps every session's row in one index.db beside the Markdown: a source file of each.
      if (format === 'projecthub') addIndexRow(join(root, 'proj/vault/.projecthub/index.db'), id, slots, type === types[0]);
      // The session's own file comes first; its companions (a transcript, payload files) are found by its reader.
      const written = sessionFiles(format, id, slots);
      for (const [path, bytes] of written) {
        const abs = join(root, path);
        await mkdir(dirname(abs), { recursive: true });
        await writeFile(abs, bytes);
        if (path === written[0]?.[0]) files.push(abs);
      }
    }
  }
  return { plants, files };
}
