// Whether the answers a page got before its event stream opened may have missed a change: only then is a refetch needed.
//
// The server counts the events it sends. Each /api answer carries the count before its call was dispatched, and the
// stream's first event (hello) the count when it opened; every event from that count on comes down the stream. An answer
// whose count is lower may predate an event the stream will never carry. So once the hello has come and every call sent
// before it has been answered, the page is stale only if one of those answers counted fewer events than the hello (or
// carried no count, or failed). Calls sent after the hello were dispatched after the stream opened: they need no check.

/** What a call reports when it ends: the answer's count, or null when there was none (an error, an older server). */
export type CallDone = (eventsSentBefore: number | null) => void;

export class MissedEvents {
  private readonly onMissed: () => void;
  /** Null until the stream's first hello: the count of events the server had sent when it opened. */
  private hello: number | null = null;
  private inFlight = 0;
  /** The lowest count among answers to calls sent before the hello. */
  private lowest = Infinity;
  /** A call sent before the hello ended without a count. */
  private uncounted = false;
  private decided = false;

  /** `onMissed` runs at most once, when the answers so far may be stale. */
  constructor(onMissed: () => void) {
    this.onMissed = onMissed;
  }

  /** A call is about to be sent; the function returned is called once with its answer's count. */
  callStarted(): CallDone {
    if (this.hello !== null) return () => {};
    this.inFlight++;
    let ended = false;
    return (count) => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      if (count === null) this.uncounted = true;
      else this.lowest = Math.min(this.lowest, count);
      this.decide();
    };
  }

  /** The stream's first hello; null when its payload could not be read (then the answers are treated as stale). */
  helloReceived(events: number | null): void {
    if (this.hello !== null || this.decided) return;
    if (events === null) {
      this.decided = true;
      this.onMissed();
      return;
    }
    this.hello = events;
    this.decide();
  }

  private decide(): void {
    if (this.decided || this.hello === null || this.inFlight > 0) return;
    this.decided = true;
    if (this.uncounted || this.lowest < this.hello) this.onMissed();
  }
}
