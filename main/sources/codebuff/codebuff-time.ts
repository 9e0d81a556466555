// Codebuff's message times: ISO strings, or bare wall-clock times ("03:04 PM") resolved against the chat's own start date.
import { toIsoTimestamp } from '../coerce.ts';

/** A chat folder is named after its start: an ISO time with `-` for `:` ("2026-07-15T15-04-00.000Z"). */
export function chatStart(chatId: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})(\.\d+)?(Z)?$/.exec(chatId);
  if (!m) return null;
  const [, day, h, mi, s, frac = '', zone] = m;
  const text = `${day}T${h}:${mi}:${s}${frac}`;
  // Without a zone the name is the wall clock of the machine that wrote it.
  const iso = zone ? toIsoTimestamp(`${text}Z`) : null;
  const date = iso ? new Date(iso) : new Date(`${text}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/;

/**
 * Resolves each message's time in order. A bare clock time is local wall-clock time on the chat's day; when the
 * hour goes backwards the chat crossed midnight and the day moves on (so a chat started at 23:58 whose next message
 * says "12:01 AM" lands on the next day). An absolute time moves the running day to its own local date.
 */
export class CodebuffClock {
  #day: Date | null;
  #hour: number;

  constructor(start: Date | null) {
    this.#day = start ? new Date(start.getFullYear(), start.getMonth(), start.getDate()) : null;
    this.#hour = start ? start.getHours() : -1;
  }

  /** The ISO time of one message's `timestamp`, or null (with `unreadable` true) when it is not a time at all. */
  resolve(text: string): { iso: string | null; unreadable: boolean } {
    const trimmed = text.trim();
    const clock = CLOCK.exec(trimmed);
    if (!clock) {
      const iso = toIsoTimestamp(trimmed);
      if (iso === null) return { iso: null, unreadable: true };
      const at = new Date(iso);
      this.#day = new Date(at.getFullYear(), at.getMonth(), at.getDate());
      this.#hour = at.getHours();
      return { iso, unreadable: false };
    }
    let hour = Number(clock[1]);
    const minute = Number(clock[2]);
    const second = Number(clock[3] ?? '0');
    const meridiem = clock[4]?.toLowerCase();
    if (minute > 59 || second > 59 || hour > 23 || (meridiem && (hour < 1 || hour > 12))) return { iso: null, unreadable: true };
    if (meridiem === 'pm' && hour !== 12) hour += 12;
    if (meridiem === 'am' && hour === 12) hour = 0;
    // No date to put the time on: the chat folder's name is not a time.
    if (this.#day === null) return { iso: null, unreadable: false };
    if (this.#hour >= 0 && hour < this.#hour) this.#day = new Date(this.#day.getFullYear(), this.#day.getMonth(), this.#day.getDate() + 1);
    this.#hour = hour;
    const at = new Date(this.#day.getFullYear(), this.#day.getMonth(), this.#day.getDate(), hour, minute, second);
    return { iso: at.toISOString(), unreadable: false };
  }
}
