// Ids in the shapes the tools write them (UUIDs, msg_/req_/toolu_ ids, hex, base64 signatures), drawn from the seeded PRNG.
import { Prng } from '../prng.ts';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE64 = `${BASE62}+/`;
const HEX = '0123456789abcdef';

function chars(rng: Prng, alphabet: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(rng.next() * alphabet.length)];
  return out;
}

export const hex = (rng: Prng, n: number) => chars(rng, HEX, n);

/** A version-4 UUID (Claude Code's sessions and records). */
export const uuid = (rng: Prng) => `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-${'89ab'[rng.int(0, 3)]}${hex(rng, 3)}-${hex(rng, 12)}`;

/** A version-7 UUID whose first 48 bits are the time (Codex's rollouts). */
export function uuid7(rng: Prng, ms: number): string {
  const t = ms.toString(16).padStart(12, '0');
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${hex(rng, 3)}-${'89ab'[rng.int(0, 3)]}${hex(rng, 3)}-${hex(rng, 12)}`;
}

/** `msg_01…`, `req_011C…`, `toolu_01…` as the Anthropic API returns them. */
export const messageId = (rng: Prng) => `msg_01${chars(rng, BASE62, 22)}`;
export const requestId = (rng: Prng) => `req_011C${chars(rng, BASE62, 20)}`;
export const toolUseId = (rng: Prng) => `toolu_01${chars(rng, BASE62, 22)}`;
export const callId = (rng: Prng) => `call_${chars(rng, BASE62, 24)}`;

/** Random base64 drawn once, from its own seed: blobs are slices of it (drawing megabytes a character at a time is slow). */
let pool = '';
const POOL = 1 << 20;

/** An opaque base64 blob (thinking signatures, Codex's encrypted reasoning) of about `n` characters. */
export function base64(rng: Prng, n: number): string {
  if (!pool) pool = chars(new Prng(0x5eed64), BASE64, POOL);
  const length = Math.min(POOL, n - (n % 4));
  const start = rng.int(0, POOL - length);
  return pool.slice(start, start + length);
}
