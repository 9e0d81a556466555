// Prints what the realistic corpus holds: per format its files, bytes and records per type, and its large files.
import type { RealisticCorpus } from './corpus.ts';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const count = (n: number) => n.toLocaleString('en-US');

export function printCorpusProfile(c: RealisticCorpus): void {
  const sessions = c.files.length;
  console.log(
    `\nRealistic corpus — ${count(sessions)} session files, ${mb(c.bytes)} (asked ${c.sizeMb} MB, seed ${c.seed}; ${c.generated ? `generated in ${c.generateMs} ms` : 'kept from an earlier run'})`,
  );
  console.log(`  root ${c.root}`);
  const formats = Object.entries(c.profile).sort((a, b) => b[1].bytes - a[1].bytes);
  for (const [format, p] of formats) {
    const share = `${((p.bytes / c.bytes) * 100).toFixed(1)}% of bytes`;
    console.log(`  ${format.padEnd(12)} ${count(p.files).padStart(6)} files  ${mb(p.bytes).padStart(10)}  ${share}`);
    const records = Object.entries(p.records).sort((a, b) => b[1] - a[1]);
    const total = records.reduce((n, [, k]) => n + k, 0);
    console.log(`      ${count(total)} records: ${records.map(([type, k]) => `${type} ${count(k)}`).join(', ')}`);
  }
  const sizes = c.files.map((f) => f.bytes).sort((a, b) => a - b);
  const at = (q: number) => sizes[Math.min(sizes.length - 1, Math.floor(q * sizes.length))] ?? 0;
  console.log(
    `  file sizes: median ${mb(at(0.5))}, p90 ${mb(at(0.9))}, p99 ${mb(at(0.99))}; over 32 MB: ${c.largeFiles.map((f) => `${f.format} ${mb(f.bytes)}`).join(', ') || 'none'}`,
  );
}
