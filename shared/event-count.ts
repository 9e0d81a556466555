// How `serve` lets a page load fetch its state once: every /api answer says how many events had gone out when the call
// was dispatched, and the event stream's first event says how many had gone out when it opened. An answer whose count is
// below the stream's may have missed a change the stream will never carry; only then does the page fetch again.

/** Header on every /api answer: the number of events the server had sent before it dispatched the call. */
export const EVENTS_SENT_HEADER = 'X-Session-Vault-Events';

/** The SSE event written first on every stream, with `{ events: <number sent before the stream opened> }`. */
export const STREAM_HELLO_EVENT = 'hello';
