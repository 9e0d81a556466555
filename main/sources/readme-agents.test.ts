// README's "What it reads" table names every agent the registry reads: adding a reader without documenting it fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMAT_LABELS } from '../../shared/source-formats.ts';
import { readers } from './registry.ts';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## What it reads'), readme.indexOf('\n## ', readme.indexOf('## What it reads') + 4));
const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| tool'));

describe('README "What it reads"', () => {
  it('has one table row per reader, named as the app names the agent', () => {
    const named = rows.map((row) => row.split('|')[1]!.trim());
    expect([...named].sort()).toEqual(readers.map((r) => FORMAT_LABELS[r.format]).sort());
  });
});
