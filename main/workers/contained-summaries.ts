// The scan worker's batch of a store's sessions: each read (in one read of the store where its reader can) and answered as its summary, all in one message back.
import type { Session } from '../../shared/session.ts';
import { toSummary } from '../../shared/summarize.ts';
import { extractPackedIndexText } from '../search-index/index-text.ts';
import { usageFacts } from '../search-index/usage-facts.ts';
import { containedPath, storeReader } from '../catalogue/contained-sessions.ts';
import { UnreadableError, type ContainedRead } from '../sources/types.ts';
import type { ReadFailure, SummariesRequest, SummariesResponse, SummaryResponse } from './read-protocol.ts';

type Failure = (id: number, format: ReadFailure['format'], err: unknown) => ReadFailure;

/**
 * A batch stops reading once its sessions' index text reaches this many bytes, and leaves the rest for the next: the
 * text waits in the worker until the batch is answered, and 32 long sessions could otherwise hold hundreds of MB.
 * The bench store's batches hold ~0.5 MB.
 */
const BATCH_TEXT_BYTES = 16 * 1024 * 1024;

/** A session's answer as a summary request's (read-file.ts): the list's summary, its index text and usage. */
function summaryOf(id: number, path: string, session: Session): SummaryResponse {
  const companions = session.sourceFiles.filter((f) => f.role !== 'primary' && f.path !== path).map((f) => f.path);
  return { id, ok: true, summary: toSummary(session), companions, text: extractPackedIndexText(session), usage: usageFacts(session) };
}

/**
 * The sessions `request.ids` of the store `request.path`, each answered as a summary of `<store>#<id>` would be
 * (`failure` turns an error into the same reason). Each session is summarised as soon as it is read, so the batch
 * holds summaries, never its sessions; past BATCH_TEXT_BYTES of index text the rest are answered null (not read).
 */
export async function summarizeContained(request: SummariesRequest, failure: Failure): Promise<SummariesResponse> {
  const { id, path: store, ids } = request;
  const found = storeReader(store);
  if (!found) return failure(id, null, new UnreadableError('wrong_shape', 'No reader lists sessions in this file.'));
  const { reader, container } = found;
  const answers = new Map<string, SummaryResponse>();
  let textBytes = 0;
  const answer = (read: ContainedRead): boolean => {
    let response: SummaryResponse;
    try {
      response = 'session' in read ? summaryOf(id, containedPath(store, read.id), read.session) : failure(id, reader.format, read.error);
    } catch (err) {
      response = failure(id, reader.format, err);
    }
    answers.set(read.id, response);
    if (response.ok && response.text && 'packed' in response.text) textBytes += response.text.packed.byteLength;
    return textBytes < BATCH_TEXT_BYTES;
  };
  try {
    if (container.readMany) await container.readMany(store, ids, answer);
    else {
      for (const sessionId of ids) {
        const more = await container.readOne(store, sessionId).then(
          (session) => answer({ id: sessionId, session }),
          (err: unknown) => answer({ id: sessionId, error: err }),
        );
        if (!more) break;
      }
    }
  } catch (err) {
    // The batch's read failed as a whole: every session not answered yet fails with its reason.
    for (const sessionId of ids) if (!answers.has(sessionId)) answers.set(sessionId, failure(id, reader.format, err));
  }
  const full = textBytes >= BATCH_TEXT_BYTES;
  const results = ids.map(
    (sessionId) =>
      answers.get(sessionId) ??
      (full ? null : failure(id, reader.format, new UnreadableError('wrong_shape', `The ${reader.format} reader did not read session ${sessionId}.`))),
  );
  return { id, ok: true, results };
}
