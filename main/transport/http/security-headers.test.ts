// The UI's Content-Security-Policy (HTTP header, app:// header and the page's own meta tag) allows no inline script or style.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, securityHeaders } from './security-headers.ts';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

const page = readFileSync(join(import.meta.dirname, '..', '..', '..', 'renderer', 'index.html'), 'utf8');
const metaPolicy = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(page)?.[1] ?? '';

describe('Content-Security-Policy', () => {
  it('takes styles and scripts only from the app itself: no inline <style>, style="…" or script', () => {
    const csp = directives(CONTENT_SECURITY_POLICY);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-/);
    expect(securityHeaders['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
  });

  it('is just as strict in the page itself, so the desktop window and a browser tab agree', () => {
    expect(metaPolicy).not.toBe('');
    const meta = directives(metaPolicy);
    const header = directives(CONTENT_SECURITY_POLICY);
    for (const name of ['default-src', 'script-src', 'style-src', 'img-src', 'connect-src', 'object-src', 'base-uri', 'form-action']) {
      expect(meta.get(name), name).toEqual(header.get(name));
    }
  });
});
