// Names every platform can create: no Windows device name or refused character, no trailing dot or space, bounded depth and length.
import type { BundleRule } from './bundle-error.ts';

export const MAX_SEGMENTS = 32;
export const MAX_NAME_CHARS = 1024;
export const MAX_SEGMENT_BYTES = 255;

/** Device names Windows opens instead of a file, whatever the extension or case ("aux.json", "Con.tar.gz"). */
const RESERVED = /^(CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9¹²³]|LPT[0-9¹²³])$/i;
/** Characters Windows refuses in a name (control characters are refused before this, as unsafe everywhere). */
const REFUSED_CHARACTER = /[<>:"|?*]/;

export interface NameRefusal {
  rule: BundleRule;
  problem: string;
}

/** Why one path segment cannot be created on Windows, or null. */
function windowsSegmentProblem(segment: string): string | null {
  const bad = REFUSED_CHARACTER.exec(segment);
  if (bad) return `"${segment}", whose "${bad[0]}" Windows does not allow in a name`;
  if (/[. ]$/.test(segment))
    return `"${segment}", which ends in a ${segment.endsWith('.') ? 'dot' : 'space'} (Windows drops it, so it would name another file)`;
  const base = (segment.split('.')[0] ?? '').replace(/ +$/, '');
  if (RESERVED.test(base)) return `"${segment}", a device name Windows reserves (${base.toUpperCase()})`;
  return null;
}

/**
 * Why a normalized relative name (segments split on "/") is refused on every platform, or null: a segment Windows
 * cannot create, a path deeper than MAX_SEGMENTS, a segment longer than file systems allow, or a name too long.
 */
export function portableNameRefusal(name: string): NameRefusal | null {
  if (name.length > MAX_NAME_CHARS) return { rule: 'path-too-long', problem: `a path longer than ${MAX_NAME_CHARS} characters (${name.length})` };
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.length > MAX_SEGMENTS)
    return { rule: 'path-too-deep', problem: `${segments.length} levels of folders and file; at most ${MAX_SEGMENTS} are accepted` };
  for (const segment of segments) {
    const bytes = Buffer.byteLength(segment, 'utf8');
    if (bytes > MAX_SEGMENT_BYTES) return { rule: 'path-too-long', problem: `a folder or file name longer than ${MAX_SEGMENT_BYTES} bytes (${bytes})` };
    const problem = windowsSegmentProblem(segment);
    if (problem) return { rule: 'windows-unsafe-name', problem: `a segment Windows cannot create: ${problem}` };
  }
  return null;
}
