// Reads Hermes Agent sessions: the state.db store (a container of sessions) and the transcripts in sessions/ beside it.
import { basename } from 'node:path';
import { shellArg } from '../shell-quote.ts';
import type { SourceReader } from '../types.ts';
import { hermesRows, listHermesStore, readHermesStoreSession, readOnlyHermesSession } from './hermes-container.ts';
import { readHermesTranscriptFile } from './hermes-file.ts';
import { claimsHermes, hermesHomes } from './hermes-paths.ts';
import { recognizesHermes } from './hermes-recognize.ts';

export const hermesReader: SourceReader = {
  format: 'hermes',
  capabilities: { tokens: true, recordedCost: true, subAgents: true, toolResults: true, thinking: true, images: true },
  // The home holds state.db and sessions/; every profile under <home>/profiles/ is a home of its own.
  defaultRoots: (env, home) => hermesHomes(env, home),
  // `hermes --resume <id>` (Hermes docs, user-guide/sessions: "Resume Specific Session"); sub-agents are resumed by id too.
  resumeCommand: (s) => `hermes --resume ${shellArg(s.id)}`,
  claims: claimsHermes,
  recognizes: recognizesHermes,
  // A transcript, in its home or lying anywhere (recognised by its content); state.db is the store.
  read: (absPath) => (basename(absPath) === 'state.db' ? readOnlyHermesSession(absPath) : readHermesTranscriptFile(absPath)),
  container: {
    // The transcripts are files of their own; only state.db holds many sessions.
    isStore: (absPath) => basename(absPath) === 'state.db',
    list: listHermesStore,
    readOne: (absPath, id) => readHermesStoreSession(absPath, id),
    rows: hermesRows,
  },
};
