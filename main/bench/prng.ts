// A small seeded PRNG (mulberry32) so generated benchmark corpora are identical run to run.
export class Prng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  /** Realistic prose-ish text of about `length` characters. */
  text(length: number): string {
    const words = [
      'the',
      'parser',
      'returns',
      'a',
      'session',
      'index',
      'when',
      'file',
      'reader',
      'test',
      'fails',
      'because',
      'merge',
      'cache',
      'token',
      'stream',
      'update',
      'config',
      'branch',
      'commit',
      'function',
      'handler',
      'async',
      'value',
      'error',
      'retry',
      'build',
      'path',
    ];
    const out: string[] = [];
    let n = 0;
    while (n < length) {
      const w = this.pick(words);
      out.push(w);
      n += w.length + 1;
    }
    return out.join(' ');
  }
}
