// A SCRAM-SHA-256 verifier for a role's password, made here so the password itself never reaches the server (or its statement log).
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

const ITERATIONS = 4096;

/** What `ALTER ROLE … PASSWORD` takes as an already-hashed SCRAM password (RFC 5802/7677, as PostgreSQL stores it). For ASCII passwords, which need no SASLprep. */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16)): string {
  if (!/^[\x20-\x7e]+$/.test(password)) throw new Error('scramVerifier takes printable ASCII passwords only.');
  const salted = pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${ITERATIONS}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
