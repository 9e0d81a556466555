// The names of the commands the vault and bundle modules implement, known without loading those modules (cli.ts loads a command's module only when it runs).
export const VAULT_COMMANDS = ['keep', 'tag', 'note', 'fork', 'resume', 'prune', 'delete', 'clear'] as const;
export const BUNDLE_COMMANDS = ['export', 'import'] as const;
