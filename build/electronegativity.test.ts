// Electronegativity, run offline over the app's sources, reports nothing but the Electron-version notice.
import { describe, expect, it } from 'vitest';
import { runElectronegativity, VERSION_NOTICE } from './electronegativity.ts';

describe('Electronegativity', () => {
  it('finds no misconfiguration in main/, preload/ and renderer/', { timeout: 120_000 }, async () => {
    const issues = await runElectronegativity();
    const found = issues.filter((i) => i.id !== VERSION_NOTICE).map((i) => `${i.id} at ${i.file}:${i.line} (${i.severity} | ${i.confidence})`);
    expect(found).toEqual([]);
    // The scan really ran: it read package.json and said which Electron to keep up to date.
    expect(issues.map((i) => i.id)).toContain(VERSION_NOTICE);
  });
});
