// The JSON Schema of session.json, generated from the zod model; build/session.schema.json ships this text.
import { z } from 'zod';
import { SessionDocument } from './session-schema.ts';

/** Stable text (2-space JSON + newline), so the committed file can be compared byte for byte. */
export function sessionJsonSchemaText(): string {
  return `${JSON.stringify(z.toJSONSchema(SessionDocument, { target: 'draft-2020-12' }), null, 2)}\n`;
}
