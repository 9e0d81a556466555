// Where `serve --team` may listen: loopback by default; another address only over TLS (a certificate and its key, read and checked here) or with an explicit --insecure-http.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { UsageError } from '../cli/usage-error.ts';

export interface TlsFiles {
  cert: string;
  key: string;
}

export interface ServeTls {
  cert: Buffer;
  key: Buffer;
  /** The names and addresses the certificate is for (its subjectAltName entries): the Host headers accepted. */
  names: string[];
}

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));
}

/** Whether `host` is an address for every interface (0.0.0.0, ::), which names no one host a browser would use. */
export const isWildcardHost = (host: string): boolean => ['0.0.0.0', '::', '[::]'].includes(host);

async function readPem(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read the TLS ${what} ${path}${code ? ` (${code})` : ''}.`);
  }
}

/** Reads the certificate and key, checks that they are PEM, that the key is the certificate's, and that it has not expired. */
export async function readServeTls(files: TlsFiles, now = Date.now()): Promise<ServeTls> {
  const cert = await readPem(files.cert, 'certificate');
  const key = await readPem(files.key, 'key');
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    throw new UsageError(`${files.cert} is not a PEM certificate (-----BEGIN CERTIFICATE-----).`);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new UsageError(`${files.key} is not a PEM private key without a passphrase.`);
  }
  if (!x509.checkPrivateKey(privateKey)) throw new UsageError(`The key ${files.key} is not the key of the certificate ${files.cert}.`);
  if (Date.parse(x509.validTo) < now) throw new UsageError(`The certificate ${files.cert} expired on ${x509.validTo}.`);
  const names = (x509.subjectAltName ?? '').split(/,\s*/).flatMap((entry) => {
    const m = /^(DNS|IP Address):(.+)$/.exec(entry.trim());
    return m?.[2] ? [m[2].toLowerCase()] : [];
  });
  return { cert, key, names };
}

/**
 * Refuses a non-loopback address without TLS unless `insecureHttp` was given, and TLS files given half. What is
 * said names the options to use.
 */
export function checkServeAddress(host: string, tls: Partial<TlsFiles>, insecureHttp: boolean): void {
  if ((tls.cert === undefined) !== (tls.key === undefined)) throw new UsageError('--tls-cert and --tls-key go together: give both, or neither.');
  if (!isLoopbackHost(host) && tls.cert === undefined && !insecureHttp) {
    throw new UsageError(
      `Serving on ${host} would send the team's sessions and the access token over the network unencrypted. Give a certificate and its key (--tls-cert FILE --tls-key FILE), or --insecure-http if the network is trusted.`,
    );
  }
}
