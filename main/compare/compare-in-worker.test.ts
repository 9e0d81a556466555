// The worker side of a comparison: both sessions come from the worker's cache, and a file that cannot be read is named.
import { describe, expect, it } from 'vitest';
import { BASE_TURNS, testSession } from '../../shared/compare/test-sessions.ts';
import type { Session } from '../../shared/session.ts';
import type { ReadFailure } from '../workers/read-protocol.ts';
import { compareInWorker } from './compare-in-worker.ts';

const sessions: Record<string, Session> = { '/a.json': testSession('vault:a', BASE_TURNS), '/b.json': testSession('vault:b', BASE_TURNS.slice(1)) };

describe('compareInWorker', () => {
  it('opens both files through the given opener and labels the sides with the catalogue keys', async () => {
    const opened: string[] = [];
    const open = async (_id: number, path: string) => {
      opened.push(path);
      return sessions[path] as Session;
    };
    const result = await compareInWorker({ id: 7, path: '/a.json', otherPath: '/b.json', mode: 'compare', keyA: 'vault:a#1', keyB: 'vault:b' }, open);
    expect(opened).toEqual(['/a.json', '/b.json']);
    expect(result.ok && [result.id, result.comparison.a.key, result.comparison.stats.deleted]).toEqual([7, 'vault:a#1', 1]);
  });

  it('reports which file could not be read', async () => {
    const failure: ReadFailure = { id: 3, ok: false, format: 'codex', unreadable: { code: 'invalid_json', message: 'cut off' } };
    const open = async (_id: number, path: string) => (path === '/b.json' ? failure : (sessions[path] as Session));
    const result = await compareInWorker({ id: 3, path: '/a.json', otherPath: '/b.json', mode: 'compare' }, open);
    expect(result).toMatchObject({ ok: false, path: '/b.json', unreadable: { message: 'cut off' } });
  });
});
