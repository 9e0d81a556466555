// Regenerates build/session.schema.json from the zod model: `node main/recorder/write-json-schema.ts`.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sessionJsonSchemaText } from './json-schema.ts';

const target = resolve(import.meta.dirname, '../../build/session.schema.json');
writeFileSync(target, sessionJsonSchemaText());
process.stdout.write(`wrote ${target}\n`);
