// Indexing progress in words: "Indexing 1,234 of 10,000 files · 120 MB of 712 MB · about 40 s left".
import type { IndexProgress } from '../shared/search-api.ts';

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb).toLocaleString('en-US')} MB`;
}

function timeLeft(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `about ${s} s left`;
  const m = Math.round(s / 60);
  if (m < 60) return `about ${m} min left`;
  return `about ${Math.floor(m / 60)} h ${m % 60} min left`;
}

export function progressText(p: IndexProgress): string {
  const parts = [`Indexing ${p.filesDone.toLocaleString('en-US')} of ${p.filesTotal.toLocaleString('en-US')} file${p.filesTotal === 1 ? '' : 's'}`];
  if (p.bytesTotal > 0) parts.push(`${megabytes(p.bytesDone)} of ${megabytes(p.bytesTotal)}`);
  if (p.etaMs !== null) parts.push(timeLeft(p.etaMs));
  return parts.join(' · ');
}

/** 0–1, by bytes when sizes are known (a few huge files dominate the time), else by files. */
export function progressFraction(p: IndexProgress): number {
  const f = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.filesTotal > 0 ? p.filesDone / p.filesTotal : 0;
  return Math.min(1, Math.max(0, f));
}

const sessions = (n: number) => `${n.toLocaleString('en-US')} session${n === 1 ? '' : 's'}`;

/**
 * While the index takes the text of sessions already listed: "Search catching up · 1,234 sessions not searchable
 * yet", then, for substrings of identifiers and paths, "Identifier search catching up · 56 sessions left"; null when
 * search finds everything in every listed session.
 */
export function catchingUpText(p: IndexProgress): string | null {
  const words = p.searchPending ?? 0;
  if (words > 0) return `Search catching up · ${sessions(words)} not searchable yet`;
  const substrings = p.substringPending ?? 0;
  if (substrings > 0) return `Identifier search catching up · ${sessions(substrings)} left`;
  return null;
}

/** The status line once a scan is over: "Index up to date · 10,000 files checked". */
export function idleText(p: IndexProgress): string {
  if (p.filesTotal === 0) return 'Index up to date';
  return `Index up to date · ${p.filesTotal.toLocaleString('en-US')} file${p.filesTotal === 1 ? '' : 's'} checked`;
}
