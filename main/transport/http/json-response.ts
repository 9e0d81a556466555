// JSON answers of the HTTP transport: the Result envelope, never cached, with the security headers.
import type { ServerResponse } from 'node:http';
import type { ErrorCode, Result } from '../../../shared/result.ts';
import { securityHeaders } from './security-headers.ts';

export function sendJson(res: ServerResponse, status: number, body: Result<unknown>): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...securityHeaders }).end(JSON.stringify(body));
}

export function sendError(res: ServerResponse, status: number, code: ErrorCode, message: string, field?: string): void {
  sendJson(res, status, { ok: false, error: field === undefined ? { code, message } : { code, message, field } });
}
