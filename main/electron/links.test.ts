// Only web and mailto links reach shell.openExternal; file:, custom schemes and credentialed URLs are dropped.
import { describe, expect, it } from 'vitest';
import { externalLinkTarget } from './links.ts';

describe('externalLinkTarget', () => {
  it('lets http and https pages open in the browser, normalised', () => {
    expect(externalLinkTarget('https://example.com/docs?q=1')).toBe('https://example.com/docs?q=1');
    expect(externalLinkTarget('HTTP://Example.com')).toBe('http://example.com/');
  });

  it('lets mailto links open the mail program', () => {
    expect(externalLinkTarget('mailto:team@example.com?subject=Session')).toBe('mailto:team@example.com?subject=Session');
  });

  it('refuses schemes that would run or open local things', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'ms-msdt:/id',
      'app://bundle/index.html',
      'vscode://file/x',
      'data:text/html,hi',
      'not a url',
    ]) {
      expect(externalLinkTarget(url), url).toBeNull();
    }
  });

  it('refuses links that carry credentials', () => {
    expect(externalLinkTarget('https://user:pw@example.com/')).toBeNull();
  });
});
