// The Team panel's count of team sessions: exact, or "200+" when the store stopped counting at its cap.
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../store/store.ts';
import { fakeClient, teamStatus } from '../../test-fixtures.ts';
import { render } from '../../test-render.tsx';
import { TeamPanel } from './TeamPanel.tsx';

const status = teamStatus();
const teamOf = (total: number, totalCapped: boolean) => ({ team: { ...createAppStore(fakeClient({}).client).getState().team, status, total, totalCapped } });

describe('TeamPanel total', () => {
  it('shows an exact count as it is, and a capped one as at least that many', () => {
    expect(render(<TeamPanel />, teamOf(37, false))).toContain('Team (37)');
    expect(render(<TeamPanel />, teamOf(4321, false))).toContain('Team (4,321)');
    expect(render(<TeamPanel />, teamOf(1000, true))).toContain('Team (1,000+)');
    expect(render(<TeamPanel />, teamOf(200, true))).toContain('Team (200+)');
  });
});
