// Every format reader the app knows, in the order they are asked whether they claim a path.
import { jidoCodeReader } from './jido-code.ts';
import type { SourceReader } from './types.ts';
import { vizierReader } from './vizier.ts';

export const readers: SourceReader[] = [vizierReader, jidoCodeReader];

/** The first reader that claims this absolute path, if any. */
export function findReader(absPath: string): SourceReader | undefined {
  return readers.find((reader) => reader.claims(absPath));
}
