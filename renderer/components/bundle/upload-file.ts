// Sends a picked or dropped file to the services in pieces (beginUpload, uploadChunk), reporting how much went: bundles and session files alike.
import { UPLOAD_CHUNK } from '../../../shared/bundle-limits.ts';
import type { AppClient } from '../../transport/client.ts';

/** A file the user picked or dropped: only what uploading needs of a browser File. */
export interface PickedFile {
  name: string;
  size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The upload's id once every byte has gone; an empty file is refused before anything is sent. */
export async function uploadFile(client: AppClient, file: PickedFile, sent: (bytes: number) => void): Promise<string> {
  if (file.size === 0) throw new Error(`${file.name} is empty.`);
  const { uploadId } = await client.beginUpload({ size: file.size });
  for (let offset = 0; offset < file.size; offset += UPLOAD_CHUNK) {
    const bytes = new Uint8Array(await file.slice(offset, Math.min(offset + UPLOAD_CHUNK, file.size)).arrayBuffer());
    await client.uploadChunk({ uploadId, offset, data: toBase64(bytes) });
    sent(offset + bytes.length);
  }
  return uploadId;
}
