// A session's own summary as the card shows it: ProjectHub's structured one whole, or an outcome's summary as the overview.
import { describe, expect, it } from 'vitest';
import { emptySession } from '../../shared/empty-session.ts';
import { ownSummaryRecord } from './summary-methods.ts';

describe('ownSummaryRecord', () => {
  it("shows a session's structured summary by its tool, as of its last update", () => {
    const summary = { overview: 'Added tide tables.', decisions: ['Use NOAA data'], outcomes: [], openItems: ['Cache'], tags: ['tides'] };
    const session = emptySession('projecthub:p1', { format: 'projecthub', summary, updatedAt: '2026-03-05T10:00:00Z' });
    expect(ownSummaryRecord(session)).toEqual({ ...summary, source: 'session', author: 'ProjectHub', updatedAt: '2026-03-05T10:00:00Z' });
  });

  it("takes an outcome's summary as the overview when that is all the tool recorded, and nothing when there is neither", () => {
    const session = emptySession('vizier:v1', { outcome: { status: 'accepted', summary: 'Tie-break fixed', commitSha: null } });
    expect(ownSummaryRecord(session)).toMatchObject({ overview: 'Tie-break fixed', decisions: [], tags: [], author: 'Vizier' });
    expect(ownSummaryRecord(emptySession('codex:c1', { format: 'codex' }))).toBeNull();
  });
});
