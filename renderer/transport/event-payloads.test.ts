// The zod-free checks of pushed events and errors agree with the contract's zod schemas, on good payloads and on broken ones.
import { describe, expect, it } from 'vitest';
import { events, type EventName } from '../../shared/api.ts';
import { AppErrorShape } from '../../shared/result.ts';
import { EVENT_NAMES, eventPayload } from './event-payloads.ts';
import { appError } from './wire-checks.ts';

const root = {
  id: 'r1',
  path: '/home/dev/sessions',
  kind: 'user',
  format: null,
  exists: true,
  sessionCount: 3,
  unreadableCount: 0,
  unreadableReasons: [],
  error: null,
};
const progress = { exportId: 'exp_12345678', phase: 'scan', sessionsDone: 1, sessionsTotal: 2, bytesDone: 10.5, bytesTotal: 20 };
const indexing = { phase: 'scanning', filesDone: 4, filesTotal: 9, bytesDone: 100, bytesTotal: 900, etaMs: null };

const samples: { [E in EventName]: unknown[] } = {
  sessionsChanged: [
    { changed: ['vizier:1'], removed: [] },
    { changed: ['a'], removed: ['b'], extra: 1 },
    { changed: 'a', removed: [] },
    { changed: [1], removed: [] },
    { changed: [] },
    null,
    [],
  ],
  rootsChanged: [
    { roots: [] },
    { roots: [root, { ...root, kind: 'default', format: 'claude-code', error: 'cannot watch', extra: true }] },
    { roots: 'nope' },
    { roots: [{ ...root, kind: 'other' }] },
    { roots: [{ ...root, format: 'notepad' }] },
    { roots: [{ ...root, sessionCount: -1 }] },
    { roots: [{ ...root, unreadableCount: 1.5 }] },
    {
      roots: [
        {
          ...root,
          unreadableCount: 2,
          unreadableReasons: [{ code: 'empty_file', count: 2, example: 'The file is empty.', file: 'e.jsonl', key: 'claude-code:e' }],
        },
      ],
    },
    { roots: [{ ...root, unreadableReasons: [{ code: 'gone', count: 1, example: 'x', file: 'x', key: 'k' }] }] },
    { roots: [{ ...root, unreadableReasons: [{ code: 'empty_file', count: 0, example: 'x', file: 'x', key: 'k' }] }] },
    { roots: [{ ...root, unreadableReasons: [{ code: 'empty_file', count: 1, example: 'x' }] }] },
    { roots: [{ ...root, unreadableReasons: undefined }] },
    { roots: [{ ...root, error: undefined }] },
    { roots: [{ ...root, exists: 'yes' }] },
    { roots: [null] },
  ],
  bundleProgress: [
    progress,
    { ...progress, phase: undefined },
    { ...progress, phase: 'write', more: 'x' },
    { ...progress, phase: 'done' },
    { ...progress, sessionsDone: 0.5 },
    { ...progress, bytesTotal: -1 },
    { ...progress, exportId: 7 },
    'progress',
  ],
  bundleOpened: [{}, { openId: 'x' }, null, [], 'opened'],
  sessionFileOpened: [{}, null, [], 'opened'],
  indexProgress: [
    indexing,
    { ...indexing, phase: 'idle', etaMs: 1500.5 },
    { ...indexing, phase: 'paused' },
    { ...indexing, etaMs: -1 },
    { ...indexing, etaMs: undefined },
    { ...indexing, filesTotal: '9' },
    { ...indexing, bytesDone: Number.NaN },
    { ...indexing, phase: 'idle', etaMs: 0, searchPending: 120 },
    { ...indexing, searchPending: 0 },
    { ...indexing, searchPending: -1 },
    { ...indexing, searchPending: 2.5 },
    { ...indexing, phase: 'idle', etaMs: 0, substringPending: 7 },
    { ...indexing, substringPending: -3 },
  ],
};

describe('event payload checks', () => {
  it('cover every event of the contract', () => {
    expect([...EVENT_NAMES].sort()).toEqual(Object.keys(events).sort());
  });

  for (const name of EVENT_NAMES) {
    it(`accept, fill in and refuse ${name} payloads exactly as the contract's schema does`, () => {
      for (const sample of samples[name]) {
        const parsed = events[name].safeParse(sample);
        expect({ sample, got: eventPayload(name, sample) }).toEqual({ sample, got: parsed.success ? parsed.data : null });
      }
    });
  }
});

describe('appError', () => {
  it('accepts and refuses error shapes exactly as AppErrorShape does', () => {
    const shapes: unknown[] = [
      { code: 'NOT_FOUND', message: 'no such session' },
      { code: 'INVALID_INPUT', message: 'bad', field: 'key' },
      { code: 'CANCELLED', message: 'stopped', stack: 'at …' },
      { code: 'TEAPOT', message: 'x' },
      { code: 'INTERNAL' },
      { code: 'INTERNAL', message: 'x', field: 3 },
      'error',
      null,
    ];
    for (const shape of shapes) {
      const parsed = AppErrorShape.safeParse(shape);
      expect({ shape, got: appError(shape) }).toEqual({ shape, got: parsed.success ? parsed.data : null });
    }
  });
});
