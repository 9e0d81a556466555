// Reads Kilo (the OpenCode-based Kilo CLI and VS Code extension): kilo.db in OpenCode's schema (or ccusage's usage-only subset) and an OpenCode-style storage/ tree, through the OpenCode reader.
import type { OpenCodeApp } from '../opencode/opencode-layout.ts';
import { openCodeFamilyReader } from '../opencode/opencode.ts';

export const KILO: OpenCodeApp = {
  format: 'kilo',
  label: 'Kilo',
  dataDirName: 'kilo',
  // The Kilo CLI 1.0 is OpenCode's: `kilo --session <id>` continues a session (kilo.ai/docs/cli, CLI reference).
  command: 'kilo',
  // ccusage reads KILO_DATA_DIR.
  dataDirVariables: ['KILO_DATA_DIR'],
};

export const kiloReader = openCodeFamilyReader(KILO);
