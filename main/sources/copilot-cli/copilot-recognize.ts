// Recognises a GitHub Copilot CLI events file from its first records, wherever the file lies.
import { isRecord } from '../coerce.ts';
import type { Head } from '../head.ts';

/** The event envelope {type, data, id, parentId, timestamp} with a dotted Copilot event type. */
function isCopilotEvent(r: Record<string, unknown>): boolean {
  return (
    typeof r.type === 'string' &&
    /^[a-z_]+\.[a-z_.]+$|^abort$/.test(r.type) &&
    isRecord(r.data) &&
    typeof r.id === 'string' &&
    'parentId' in r &&
    typeof r.timestamp === 'string'
  );
}

/** A session.start event (sessionId, copilotVersion or producer) opens the file, or the head is Copilot events throughout. */
export function recognizesCopilot(head: Head): boolean {
  const records = head.records();
  const first = records[0];
  if (!first || !isCopilotEvent(first)) return false;
  if (first.type === 'session.start' && isRecord(first.data)) {
    return typeof first.data.sessionId === 'string' && (typeof first.data.copilotVersion === 'string' || typeof first.data.producer === 'string');
  }
  // A file whose start was cut off: several events with the envelope and the session.* / assistant.* vocabulary.
  return (
    records.length >= 3 && records.every(isCopilotEvent) && records.some((r) => String(r.type).startsWith('assistant.') || String(r.type).startsWith('user.'))
  );
}
