// Team account tokens: random, stored only as scrypt hashes, checked in constant time.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function derive(token: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(token, salt, KEY_BYTES, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** A new token: 32 random bytes, base64url (safe in a URL's password and in a shell). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** `scrypt$N$r$p$<salt>$<hash>`, base64: what the store keeps instead of the token. */
export async function hashToken(token: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(token, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A hash nobody's token matches, checked when an account has none, so the time taken does not tell whether it exists. */
const NO_ACCOUNT = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_BYTES).toString('base64')}`;

/** Whether `token` is the one `stored` was made from; compared in constant time. A missing or malformed hash never matches. */
export async function tokenMatches(token: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? NO_ACCOUNT).split('$');
  const ok = parts.length === 6 && parts[0] === 'scrypt';
  const [, n, r, p, salt, hash] = ok ? parts : NO_ACCOUNT.split('$');
  const expected = Buffer.from(hash ?? '', 'base64');
  const key = await derive(token, Buffer.from(salt ?? '', 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return ok && stored !== null && expected.length === key.length && timingSafeEqual(expected, key);
}
