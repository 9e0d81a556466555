// Keeps session.json small: payloads over the inline limit, or the largest ones when the file would pass 10 MB, move to artifacts.
import type { ArtifactFolder } from './artifacts.ts';
import { byteLength, preview } from './artifacts.ts';
import type { SessionDocument } from './session-schema.ts';
import { StoreError } from './store-error.ts';

const label = (index: number) => String(index).padStart(4, '0');

export async function spillContent(doc: SessionDocument, artifacts: ArtifactFolder, index: number): Promise<void> {
  const message = doc.chat[index];
  if (!message) return;
  const bytes = byteLength(message.content);
  const rel = await artifacts.write(`chat-${label(index)}.txt`, message.content);
  message.content = `${preview(message.content)}\n\n[Full message (${bytes} bytes) saved as ${rel}]`;
  message.annotations = { ...message.annotations, content_artifact: rel };
  doc.artifacts.push(rel);
}

export async function spillAnnotations(doc: SessionDocument, artifacts: ArtifactFolder, index: number): Promise<void> {
  const message = doc.chat[index];
  if (!message?.annotations) return;
  const { content_artifact: contentArtifact, ...rest } = message.annotations;
  const rel = await artifacts.write(`chat-${label(index)}-annotations.json`, JSON.stringify(rest, null, 2));
  message.annotations = { annotations_artifact: rel, bytes: byteLength(rest) };
  if (contentArtifact !== undefined) message.annotations.content_artifact = contentArtifact;
  doc.artifacts.push(rel);
}

export async function spillDetail(doc: SessionDocument, artifacts: ArtifactFolder, index: number): Promise<void> {
  const op = doc.operations[index];
  if (!op) return;
  const text = typeof op.detail === 'string' ? op.detail : JSON.stringify(op.detail, null, 2);
  const rel = await artifacts.write(`op-${label(index)}-detail.${typeof op.detail === 'string' ? 'txt' : 'json'}`, text);
  op.detail = { artifact: rel, bytes: byteLength(text), preview: preview(text) };
  doc.artifacts.push(rel);
}

function isSpilledDetail(detail: unknown): boolean {
  return typeof detail === 'object' && detail !== null && typeof (detail as { artifact?: unknown }).artifact === 'string' && 'preview' in detail;
}

/** The serialized document, once it is strictly under `fileBytes`; the largest inline payloads move out first. */
export async function serializeWithinLimit(doc: SessionDocument, artifacts: ArtifactFolder, fileBytes: number): Promise<string> {
  for (;;) {
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    if (Buffer.byteLength(text, 'utf8') < fileBytes) return text;
    const candidates: Array<{ size: number; spill: () => Promise<void> }> = [];
    doc.chat.forEach((m, i) => {
      if (m.annotations?.content_artifact === undefined) candidates.push({ size: byteLength(m.content), spill: () => spillContent(doc, artifacts, i) });
      if (m.annotations && m.annotations.annotations_artifact === undefined)
        candidates.push({ size: byteLength(m.annotations), spill: () => spillAnnotations(doc, artifacts, i) });
    });
    doc.operations.forEach((op, i) => {
      if (!isSpilledDetail(op.detail)) candidates.push({ size: byteLength(op.detail), spill: () => spillDetail(doc, artifacts, i) });
    });
    // Below a few KB a payload is smaller than the note that would replace it.
    const biggest = candidates.filter((c) => c.size > 4 * 1024).sort((a, b) => b.size - a.size)[0];
    if (!biggest)
      throw new StoreError(
        'too_large',
        `Session ${doc.id} would reach ${fileBytes} bytes even with every large payload moved to artifacts; nothing was written.`,
      );
    await biggest.spill();
  }
}
