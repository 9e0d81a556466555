// Writes the bundled demo set: realistic Vizier and JidoCode sessions (timestamps relative to now), and one sample of every other format.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { demoClock, type DemoFile } from './demo-clock.ts';
import { jidoDemoFiles } from './demo-jido.ts';
import { vizierDemoFiles } from './demo-vizier.ts';
import { copyDemoSamples, demoSamplesDir } from './demo-samples.ts';

/** Every demo file, with timestamps relative to `now` so the list always looks recently used. */
export function demoFiles(dir: string, now: number = Date.now()): DemoFile[] {
  const clock = demoClock(now);
  return [...vizierDemoFiles(dir, clock), ...jidoDemoFiles(dir, clock)];
}

/** Same pattern as both tools (write `<file>.tmp`, rename), so a watcher never sees a half-written file. */
async function writeAtomic(target: string, content: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const tmp = `${target}.tmp`;
  try {
    await writeFile(tmp, content, 'utf8');
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Writes (or refreshes) the demo set under `dir`: `<repo>/.vizier/sessions/<id>/session.json` and
 * `.jido_code/sessions/<id>.json`, plus the sample of every other format in its tool's layout (demo-samples.ts), so
 * adding `dir` as a root lets the normal readers pick them up. Without the samples (an install that lost them) the
 * generated sessions are still written.
 */
export async function writeDemoSessions(dir: string, now: number = Date.now(), samples: string | null = demoSamplesDir()): Promise<void> {
  for (const file of demoFiles(dir, now)) {
    await writeAtomic(join(dir, ...file.path.split('/')), file.content);
  }
  if (samples) await copyDemoSamples(samples, dir);
}
