// GET /download/bundle?key=…: one session exported as a redacted bundle and sent as a file, for dragging a row out of the browser.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { BundleExport } from '../../shared/bundle-api.ts';
import type { Result } from '../../shared/result.ts';
import type { Dispatch } from '../dispatch.ts';
import { securityHeaders } from './security-headers.ts';

/** A file name every browser and OS accepts in Content-Disposition, with the exact name in filename*. */
function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Exports with every finding redacted (a drag has no review step, so it is safe by default) and streams the zip.
 * Errors come back as the usual JSON envelope with the status `statusOf` gives their code.
 */
export async function sendBundleDownload(
  dispatch: Dispatch,
  key: string | null,
  res: ServerResponse,
  statusOf: (result: Result<unknown> & { ok: false }) => number,
): Promise<void> {
  const fail = (status: number, result: Result<unknown> & { ok: false }) =>
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...securityHeaders }).end(JSON.stringify(result));
  if (!key) {
    fail(400, { ok: false, error: { code: 'INVALID_INPUT', message: 'Name the session to download with ?key=.', field: 'key' } });
    return;
  }
  const exportId = `drag-${randomUUID().replaceAll('-', '')}`;
  const result = await dispatch('exportBundle', { exportId, keys: [key], redact: true });
  if (!result.ok) {
    fail(statusOf(result), result);
    return;
  }
  const done = BundleExport.parse(result.value);
  res.writeHead(200, {
    'Content-Type': 'application/zip',
    'Content-Length': String(done.size),
    'Content-Disposition': disposition(done.fileName),
    'Cache-Control': 'no-store',
    ...securityHeaders,
  });
  await pipeline(createReadStream(done.path), res);
}
