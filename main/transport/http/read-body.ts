// Reads an API call's body within a size cap and a time limit; a body refused (413, 408) stops being read at once.
import type { IncomingMessage } from 'node:http';
import type { HttpLimits } from './limits.ts';

/** A body the transport will not read further: answer with `status`, then close the connection. */
export class BodyRefused extends Error {
  readonly status: 408 | 413;
  constructor(status: 408 | 413, message: string) {
    super(message);
    this.name = 'BodyRefused';
    this.status = status;
  }
}

/**
 * The body as text. A declared Content-Length over the cap is refused before a byte is read; a body that grows
 * past it, or is not complete within the time limit, is refused where it stands. Listeners, not `for await`:
 * ending an async iteration early destroys the socket, and the refusal could not be answered.
 */
export function readBody(req: IncomingMessage, limits: Pick<HttpLimits, 'maxBodyBytes' | 'bodyTimeoutMs'>): Promise<string> {
  const tooLarge = () => new BodyRefused(413, `Request body is larger than ${limits.maxBodyBytes} bytes.`);
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limits.maxBodyBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (outcome: { text: string } | { error: Error }) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      if ('text' in outcome) return resolve(outcome.text);
      req.pause();
      reject(outcome.error);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limits.maxBodyBytes) finish({ error: tooLarge() });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ text: Buffer.concat(chunks).toString('utf8') });
    const onGone = () => finish({ error: new Error('The client closed the connection before the body was complete.') });
    const timer = setTimeout(
      () => finish({ error: new BodyRefused(408, `Request body did not arrive within ${limits.bodyTimeoutMs} ms.`) }),
      limits.bodyTimeoutMs,
    );
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
  });
}
