// Which paths the library reads: a reader's file, a kept copy of a contained session, or a file whose head may be recognised.
import { isRowsDocumentPath } from '../catalogue/rows-document.ts';
import { isRecognitionCandidate } from '../sources/recognize.ts';
import { findReader } from '../sources/registry.ts';

/** A reader's file, or a kept or imported copy of a contained session (its rows document, read by the store's reader). */
export const isClaimed = (path: string): boolean => findReader(path) !== undefined || isRowsDocumentPath(path);

/** A file a scan or the watcher reads: claimed by its path, or one whose head the read worker may recognise. */
export const mayBeSession = (path: string): boolean => isClaimed(path) || isRecognitionCandidate(path);
