// GET /download/bundle?key=…: one session exported as a redacted bundle and sent as a file, for dragging a row out of the browser.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { BundleExport } from '../../../shared/bundle-api.ts';
import type { Result } from '../../../shared/result.ts';
import type { Dispatch } from '../dispatch.ts';
import { sendError, sendJson } from './json-response.ts';
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
  if (!key) {
    sendError(res, 400, 'INVALID_INPUT', 'Name the session to download with ?key=.', 'key');
    return;
  }
  const exportId = `drag-${randomUUID().replaceAll('-', '')}`;
  const result = await dispatch('exportBundle', { exportId, keys: [key], redact: true });
  if (!result.ok) {
    sendJson(res, statusOf(result), result);
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
