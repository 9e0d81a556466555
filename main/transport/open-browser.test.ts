// The served UI opens in a browser only for a person at a terminal with a desktop: never in CI, tests or a headless shell.
import { describe, expect, it } from 'vitest';
import { reasonNotToOpen } from './open-browser.ts';

describe('reasonNotToOpen', () => {
  it('opens for a person at a desktop terminal on every platform', () => {
    expect(reasonNotToOpen({ env: { DISPLAY: ':0' }, platform: 'linux', interactive: true })).toBeNull();
    expect(reasonNotToOpen({ env: {}, platform: 'darwin', interactive: true })).toBeNull();
    expect(reasonNotToOpen({ env: {}, platform: 'win32', interactive: true })).toBeNull();
  });

  it('does not open when output goes to a script, in CI, or on a Linux without a display', () => {
    expect(reasonNotToOpen({ env: { DISPLAY: ':0' }, platform: 'linux', interactive: false })).toBe('not started from a terminal');
    expect(reasonNotToOpen({ env: { CI: 'true', DISPLAY: ':0' }, platform: 'linux', interactive: true })).toBe('running in CI');
    expect(reasonNotToOpen({ env: {}, platform: 'linux', interactive: true })).toBe('no desktop display');
  });
});
