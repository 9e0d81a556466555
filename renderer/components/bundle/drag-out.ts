// Dragging a list row out of the browser window: Chromium's DownloadURL drag saves the session's redacted bundle where it is dropped.
import type { SessionSummary } from '../../../shared/session.ts';

/** A bundle file name from the title: no characters that DownloadURL (":" separated) or file systems refuse. */
export function dragFileName(s: Pick<SessionSummary, 'title' | 'id'>): string {
  const base = [...(s.title || s.id)]
    .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${base || 'session'}.zip`;
}

/** Fills a dragstart's data: the download for Chromium, and the key as text for drops inside the app. */
export function fillDragOut(data: Pick<DataTransfer, 'setData' | 'effectAllowed'>, s: SessionSummary, url: string): void {
  data.setData('DownloadURL', `application/zip:${dragFileName(s)}:${url}`);
  data.setData('text/plain', s.key);
  data.effectAllowed = 'copy';
}
