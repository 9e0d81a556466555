// Where each format's reader fixtures are (main/sources/<format>/fixtures/, in the tool's real layout), for tests outside that reader.
import { existsSync, readdirSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';

const sourcesDir = join(import.meta.dirname, '..', 'sources');

/** The fixtures folder of one format's reader. */
export function fixturesOf(format: string): string {
  return join(sourcesDir, format, 'fixtures');
}

/** Every format whose reader folder holds fixtures, sorted. */
export function formatsWithFixtures(): string[] {
  return readdirSync(sourcesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(fixturesOf(entry.name)))
    .map((entry) => entry.name)
    .sort();
}

/** Copies every format's fixtures into `<root>/<format>/`: one root holding a session of every kind. */
export async function copyAllFixtures(root: string): Promise<void> {
  for (const format of formatsWithFixtures()) await cp(fixturesOf(format), join(root, format), { recursive: true });
}
