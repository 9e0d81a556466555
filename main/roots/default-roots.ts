// The tools' standard session folders, discovered when they exist (more arrive with each format).
import { join } from 'node:path';
import { homedir } from 'node:os';
import type { SourceFormat } from '../../shared/session.ts';

export interface DefaultRoot {
  path: string;
  format: SourceFormat;
}

export function defaultRootCandidates(env: NodeJS.ProcessEnv): DefaultRoot[] {
  const home = env.HOME ?? homedir();
  return [{ path: join(home, '.jido_code', 'sessions'), format: 'jido-code' }];
}
