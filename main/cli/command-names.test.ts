// The command names cli.ts knows without loading a module are exactly the ones the modules implement (and document).
import { describe, expect, it } from 'vitest';
import { BUNDLE_HELP } from './bundle-commands.ts';
import { BUNDLE_COMMANDS, VAULT_COMMANDS } from './command-names.ts';
import { VAULT_HELP } from './vault-commands.ts';

describe('command names', () => {
  it("match the vault and bundle modules' own help tables", () => {
    expect([...VAULT_COMMANDS].sort()).toEqual(Object.keys(VAULT_HELP).sort());
    expect([...BUNDLE_COMMANDS].sort()).toEqual(Object.keys(BUNDLE_HELP).sort());
  });
});
