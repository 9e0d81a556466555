// The session writer's public API: open or resume a session, record into it, close it, load it back.
export { openSession, resumeHeader, type OpenSessionOptions } from './open-session.ts';
export { epilogueText, outcomeV1 } from './outcome-report.ts';
export { loadSession, sessionPaths, SESSION_FILE } from './session-files.ts';
export type { MessageInput, OperationInput, OutcomeInput, RecordingSession, WriterLimits } from './recording-session.ts';
export { SessionDocument, schemaProblems, MAX_SESSION_FILE_BYTES, type SchemaProblem } from './session-schema.ts';
export { StoreError, type StoreFailure } from './store-error.ts';
export { CONFIG_FILE_NAME } from './writer-config.ts';
export { defaultSessionsDir } from './sessions-dir.ts';

/** `load(id)` in the seed's words: the session as last checkpointed. */
export { loadSession as load } from './session-files.ts';
