// Tests which paths are Pi and oh-my-pi session files, and the id a file name gives.
import { describe, expect, it } from 'vitest';
import { claimsPi, fileIdOf, layoutOfPi } from './pi-paths.ts';

const PI = '/home/u/.pi/agent/sessions/--home-u-src-app--';
const OMP = '/home/u/.omp/agent/sessions/-src-app';

describe('claimsPi', () => {
  it.each([
    `${PI}/2026-05-12T01-02-27-657Z_019e19b4-eb48-746a-aa6b-8dfcfa37954b.jsonl`,
    // PI_CODING_AGENT_DIR elsewhere: the --<cwd>-- project folder says it is Pi's.
    '/data/pi-agent/sessions/--srv-repo--/2026-01-01T00-00-00-000Z_abc.jsonl',
    `${OMP}/2026-01-01T00-00-00-000Z_0193.jsonl`,
  ])('claims the session %s', (p) => {
    expect(claimsPi(p)).toBe(true);
    expect(layoutOfPi(p)).toEqual({ kind: 'session' });
  });

  it('claims an oh-my-pi sub-agent in the folder named after its parent, at any depth', () => {
    expect(layoutOfPi(`${OMP}/2026-01-01T00-00-00-000Z_0193/scout.jsonl`)).toEqual({
      kind: 'subagent',
      parentFile: `${OMP}/2026-01-01T00-00-00-000Z_0193.jsonl`,
    });
    expect(layoutOfPi(`${OMP}/p/scout/reviewer.jsonl`)).toEqual({ kind: 'subagent', parentFile: `${OMP}/p/scout.jsonl` });
  });

  it.each([
    `${PI}/2026-05-12T01-02-27-657Z_019e.jsonl.tmp`,
    // The pi-subagents extension keeps its own run logs below a project folder: not Pi sessions.
    `${PI}/subagent-artifacts/5f316403_worker.jsonl`,
    '/home/u/.pi/agent/sessions/loose.jsonl',
    '/home/u/notes/sessions/project/file.jsonl',
    `${OMP}/.hidden.jsonl`,
    '/home/u/.omp/agent/sessions/top-level.jsonl',
  ])('does not claim %s', (p) => expect(claimsPi(p)).toBe(false));
});

describe('fileIdOf', () => {
  it('takes the id after the timestamp, or the whole stem', () => {
    expect(fileIdOf(`${PI}/2026-05-12T01-02-27-657Z_019e19b4-eb48.jsonl`)).toBe('019e19b4-eb48');
    expect(fileIdOf(`${OMP}/p/scout.jsonl`)).toBe('scout');
  });
});
