// When the answers fetched before the event stream opened are refetched: only when one of them may have missed an event.
import { describe, expect, it } from 'vitest';
import { MissedEvents } from './missed-events.ts';

function tracker() {
  let refetches = 0;
  const missed = new MissedEvents(() => refetches++);
  return { missed, refetches: () => refetches };
}

describe('MissedEvents', () => {
  it('does not refetch a settled load: every answer counted as many events as the stream had when it opened', () => {
    const { missed, refetches } = tracker();
    const list = missed.callStarted();
    const roots = missed.callStarted();
    list(7);
    missed.helloReceived(7);
    expect(refetches()).toBe(0); // roots still in flight: no decision yet
    roots(7);
    expect(refetches()).toBe(0);
  });

  it('refetches once when an answer was worked out before an event the stream never carried', () => {
    const { missed, refetches } = tracker();
    const list = missed.callStarted();
    const roots = missed.callStarted();
    list(3); // the first scan's change went out after this call was dispatched, before the stream opened
    roots(5);
    missed.helloReceived(5);
    expect(refetches()).toBe(1);
    missed.helloReceived(9);
    expect(refetches()).toBe(1);
  });

  it('waits for the calls still in flight when the hello comes: one of them may be the stale one', () => {
    const { missed, refetches } = tracker();
    const list = missed.callStarted();
    missed.helloReceived(4);
    list(2);
    expect(refetches()).toBe(1);
  });

  it('refetches when a call failed or its answer carried no count', () => {
    const failed = tracker();
    failed.missed.callStarted()(null);
    failed.missed.helloReceived(0);
    expect(failed.refetches()).toBe(1);

    const unreadableHello = tracker();
    unreadableHello.missed.callStarted()(0);
    unreadableHello.missed.helloReceived(null);
    expect(unreadableHello.refetches()).toBe(1);
  });

  it('ignores calls sent after the hello: they were dispatched once the stream carried every event', () => {
    const { missed, refetches } = tracker();
    missed.helloReceived(2);
    const later = missed.callStarted();
    later(null);
    expect(refetches()).toBe(0);
  });

  it('counts a call once even if it reports twice', () => {
    const { missed, refetches } = tracker();
    const list = missed.callStarted();
    const roots = missed.callStarted();
    list(1);
    list(1); // a second report must not stand in for the roots' answer
    missed.helloReceived(1);
    expect(refetches()).toBe(0);
    roots(0);
    expect(refetches()).toBe(1);
  });
});
