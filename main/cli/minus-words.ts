// A search query's exclusions (`-flaky`, "-model:x merge") are words, not options: they go after `--` for parseArgs.

/** Options that take a value: what follows them is that value, left where it is. */
const VALUE_OPTIONS = new Set(['--limit', '--sort', '--root']);

/**
 * The arguments with every one that starts with a single minus (and is not `-h`) moved after `--`, where parseArgs
 * reads it as part of the query. Word order does not change what a query matches.
 */
export function minusWordsAsQuery(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  const before = end === -1 ? argv : argv.slice(0, end);
  const after = end === -1 ? [] : argv.slice(end + 1);
  const kept: string[] = [];
  const words: string[] = [];
  for (let i = 0; i < before.length; i++) {
    const arg = before[i] as string;
    if (VALUE_OPTIONS.has(arg) && i + 1 < before.length) {
      kept.push(arg, before[i + 1] as string);
      i++;
    } else if (/^-[^-]/.test(arg) && arg !== '-h') words.push(arg);
    else kept.push(arg);
  }
  return words.length || end !== -1 ? [...kept, '--', ...words, ...after] : kept;
}
