// One command's arguments through node:util parseArgs (strict); a mistake becomes a UsageError ending with that command's help.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

export function parseCommandArgs<O extends ParseArgsConfig['options']>(
  argv: string[],
  options: O,
  help: string,
  allow: { positionals?: boolean; negative?: boolean } = {},
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: allow.positionals ?? true, allowNegative: allow.negative ?? false, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${help}`);
  }
}
