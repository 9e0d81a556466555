// The agents' standard session folders, as each reader states them (honouring the agent's own override variables); used when they exist.
import { homedir } from 'node:os';
import type { SourceFormat } from '../../shared/session.ts';
import { SOURCE_FORMATS } from '../../shared/source-formats.ts';
import { readers } from '../sources/registry.ts';

export interface DefaultRoot {
  path: string;
  format: SourceFormat;
}

export function defaultRootCandidates(env: NodeJS.ProcessEnv): DefaultRoot[] {
  const home = env.HOME?.trim() || homedir();
  // In the order the UI lists the agents, whatever order the registry asks them in.
  const ordered = [...readers].sort((a, b) => SOURCE_FORMATS.indexOf(a.format) - SOURCE_FORMATS.indexOf(b.format));
  return ordered.flatMap((reader) => reader.defaultRoots(env, home).map((path) => ({ path, format: reader.format })));
}
