// Playwright helper: records every Content-Security-Policy violation a page reports (events and console errors).
import type { Page } from '@playwright/test';

export interface CspWatch {
  /** What was blocked so far: the directive, and where. */
  violations(): Promise<string[]>;
}

/** Call before the first goto: the listener is installed in every document the page loads. */
export async function watchCsp(page: Page): Promise<CspWatch> {
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) consoleErrors.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return {
    violations: async () => [...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)), ...consoleErrors],
  };
}
