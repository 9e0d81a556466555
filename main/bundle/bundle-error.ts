// Why a bundle was refused: the entry and the rule it broke, in one line a person can act on.
export type BundleRule =
  | 'not-a-zip'
  | 'corrupt-archive'
  | 'too-many-entries'
  | 'unsafe-path'
  | 'windows-unsafe-name'
  | 'path-too-deep'
  | 'path-too-long'
  | 'symlink'
  | 'encrypted'
  | 'unsupported-compression'
  | 'overlapping-entries'
  | 'header-mismatch'
  | 'hidden-data'
  | 'crc-mismatch'
  | 'compression-ratio'
  | 'total-size'
  | 'duplicate-name'
  | 'manifest-missing'
  | 'manifest-invalid'
  | 'manifest-version'
  | 'unlisted-entry'
  | 'entry-missing'
  | 'size-mismatch'
  | 'checksum-mismatch'
  | 'session-json-invalid'
  | 'disk-space';

export class BundleError extends Error {
  readonly rule: BundleRule;
  /** The entry's name in the zip, or null when the whole archive is at fault. */
  readonly entry: string | null;

  constructor(rule: BundleRule, entry: string | null, detail: string) {
    super(`${entry === null ? 'The bundle' : `Entry "${entry}"`} was refused (${rule}): ${detail}`);
    this.name = 'BundleError';
    this.rule = rule;
    this.entry = entry;
  }
}
