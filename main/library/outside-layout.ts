// Whether a session file lies outside its own tool's folders (found by its content: a copy sent by someone, a Downloads folder), which then keys it by its path too.
import { isRowsDocumentPath } from '../catalogue/rows-document.ts';
import { readers } from '../sources/registry.ts';

/**
 * True when no reader of the session's format (the part of `key` before the colon) claims `path` by its place: the
 * file was recognised by its content. Such a file's key carries its path's hash (catalogue.ts), so the tool's own
 * file of the same session keeps the plain key, whichever of the two a scan reads first. Sessions inside a store
 * (`store#id`) and their rows documents are their store's reader's by place.
 */
export function outsideLayout(path: string, key: string): boolean {
  if (path.includes('#') || isRowsDocumentPath(path)) return false;
  const colon = key.indexOf(':');
  if (colon < 1) return false;
  const format = key.slice(0, colon);
  return !readers.some((reader) => reader.format === format && reader.claims(path));
}
