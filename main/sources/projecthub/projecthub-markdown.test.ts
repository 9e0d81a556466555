// Tests for reading ProjectHub's vault Markdown: tolerant front matter and the fixed sections.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WarningList } from '../coerce.ts';
import { parseVaultMarkdown } from './projecthub-markdown.ts';

const fixture = fileURLToPath(new URL('./fixtures/tide-tables/vault/sessions/2026-03-05_7b9d1f3a-5c6e-4d8f-a0b2-c4d6e8f0a2b4.md', import.meta.url));

function parse(text: string) {
  const warnings = new WarningList();
  return { md: parseVaultMarkdown(text, warnings), warnings: warnings.list() };
}

describe('parseVaultMarkdown', () => {
  it('reads single-quoted front matter and keeps "##" headings quoted inside the rolling summary', () => {
    const { md, warnings } = parse(readFileSync(fixture, 'utf8'));
    expect(Object.fromEntries(md.frontMatter ?? [])).toEqual({
      session_id: '7b9d1f3a-5c6e-4d8f-a0b2-c4d6e8f0a2b4',
      project_dir: '/home/dev/proj/tide-tables',
      started_at: 1772730000000,
      last_saved_at: 1772730450000,
      turn_count: 1,
      status: 'compacted',
    });
    expect(md.headingId).toBe('7b9d1f3a-5c6e-4d8f-a0b2-c4d6e8f0a2b4');
    expect(md.rollingSummary).toBe(
      '**User**: Write a plan for the harmonic constituents import:\n\n## Plan\n\n1. Parse NOAA constituent CSVs\n2. Store amplitude and phase per station\n\n## Decisions\n\n- keep raw CSVs under data/noaa\n**Assistant**: Plan noted.',
    );
    expect([md.summary, md.decisions, md.searchFootprint]).toEqual([null, [], []]);
    expect(warnings).toEqual([]);
  });

  it('takes an unescaped Windows path in double quotes as written, with a warning', () => {
    const { md, warnings } = parse('---\nsession_id: "s1"\nproject_dir: "C:\\Users\\dev\\new-app"\nstatus: active\n---\n# Session: s1\n');
    expect(md.frontMatter?.get('project_dir')).toBe('C:\\Users\\dev\\new-app');
    expect(warnings).toEqual([
      {
        code: 'invalid_yaml',
        message:
          'Front matter "project_dir" has backslashes inside double quotes, which YAML reads as escape sequences (the ProjectHub writer does not escape them); it was read as written: C:\\Users\\dev\\new-app',
        count: 1,
      },
    ]);
  });

  it('reads the Summary block: overview, bullets, checked and unchecked open items, inline-code tags', () => {
    const { md } = parse(
      [
        '---',
        'session_id: "s2"',
        '---',
        '# Session: s2',
        '',
        '## Summary',
        '',
        '### Overview',
        'Moved the cron to UTC.',
        '',
        '### Key Decisions',
        '- Use UTC everywhere',
        '',
        '### Outcomes',
        '_No outcomes recorded._',
        '',
        '### Open Items',
        '- [ ] Update docs',
        '- [x] Fix tests',
        '',
        '### Tags',
        '`cron` `utc`',
        '',
        '## Rolling Summary',
        '',
        '_No summary yet._',
        '',
        '## Decisions',
        '',
        '- Use UTC everywhere',
        '',
        '## Search Footprint',
        '',
        '- `cron schedule`',
        '',
      ].join('\r\n'),
    );
    expect(md.summary).toEqual({
      overview: 'Moved the cron to UTC.',
      decisions: ['Use UTC everywhere'],
      outcomes: [],
      openItems: ['Update docs', 'Fix tests'],
      tags: ['cron', 'utc'],
    });
    expect([md.rollingSummary, md.decisions, md.searchFootprint]).toEqual(['', ['Use UTC everywhere'], ['cron schedule']]);
  });

  it('reports unknown front matter keys and a block that is never closed', () => {
    expect(parse('---\nsession_id: "s3"\nmood: calm\n---\n').warnings).toEqual([
      { code: 'unknown_field', message: 'Unknown front matter field ignored: mood.', count: 1 },
    ]);
    const open = parse('---\nsession_id: "s4"\nturn_count: 2\n');
    expect(open.md.frontMatter?.get('turn_count')).toBe(2);
    expect(open.warnings.map((w) => w.code)).toEqual(['invalid_yaml']);
  });

  it('has no front matter and no sections in a plain note', () => {
    expect(parse('# Meeting notes\n\n- nothing about sessions\n').md).toEqual({
      frontMatter: null,
      headingId: null,
      summary: null,
      rollingSummary: null,
      decisions: null,
      searchFootprint: null,
    });
  });
});
