// companionInside: a companion counts only when its real path lies inside the session's folder, whichever way it is written.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companionInside } from './companion.ts';

let home: string;
let folder: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sv-companion-'));
  folder = join(home, 'session');
  mkdirSync(join(folder, 'sub'), { recursive: true });
  mkdirSync(join(home, 'elsewhere'));
  writeFileSync(join(folder, 'meta.json'), '{}');
  writeFileSync(join(folder, 'sub', 'deep.json'), '{}');
  writeFileSync(join(home, 'elsewhere', 'secret.json'), '{}');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('companionInside', () => {
  it('takes a plain file in the folder or below it', async () => {
    expect(await companionInside(join(folder, 'meta.json'), folder)).toBe(true);
    expect(await companionInside(join(folder, 'sub', 'deep.json'), folder)).toBe(true);
  });

  it('treats a file that does not exist as absent', async () => {
    expect(await companionInside(join(folder, 'missing.json'), folder)).toBe(false);
    expect(await companionInside(join(home, 'nowhere', 'meta.json'), join(home, 'nowhere'))).toBe(false);
  });

  it('refuses a link to a file outside, and takes a link to a file inside', async () => {
    symlinkSync(join(home, 'elsewhere', 'secret.json'), join(folder, 'out.json'));
    symlinkSync(join(folder, 'meta.json'), join(folder, 'in.json'));
    expect(await companionInside(join(folder, 'out.json'), folder)).toBe(false);
    expect(await companionInside(join(folder, 'in.json'), folder)).toBe(true);
  });

  it('refuses a file reached through a linked folder that leads outside', async () => {
    symlinkSync(join(home, 'elsewhere'), join(folder, 'linked'));
    expect(await companionInside(join(folder, 'linked', 'secret.json'), folder)).toBe(false);
  });

  it('refuses a path that climbs out with ..', async () => {
    expect(await companionInside(join(folder, '..', 'elsewhere', 'secret.json'), folder)).toBe(false);
    expect(await companionInside(`${folder}/../elsewhere/secret.json`, folder)).toBe(false);
  });

  it('takes a plain file in a folder that is itself reached through a link', async () => {
    const link = join(home, 'link-to-session');
    symlinkSync(folder, link);
    expect(await companionInside(join(link, 'meta.json'), link)).toBe(true);
    expect(await companionInside(join(link, 'meta.json'), folder)).toBe(true);
  });
});
