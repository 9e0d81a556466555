// The contract's method names without its schemas: all a client needs at run time, so a bundle that only calls carries no zod.
import type { MethodName } from './api.ts';

export const METHOD_NAMES = [
  'getAppInfo',
  'listSessions',
  'getSession',
  'getMessages',
  'getRawSource',
  'getRawRecord',
  'listRoots',
  'addRoot',
  'removeRoot',
  'openDemo',
  'compareSessions',
  'getVaultStatus',
  'keepSession',
  'setAnnotations',
  'forkSession',
  'getResumeInfo',
  'pruneVault',
  'deleteSession',
  'listTrash',
  'restoreSession',
  'clearVault',
  'getVaultSettings',
  'setVaultSettings',
  'searchSessions',
  'getIndexProgress',
  'usageReport',
  'scanBundle',
  'exportBundle',
  'cancelExport',
  'readExport',
  'beginUpload',
  'uploadChunk',
  'takeOpenedBundles',
  'readOpenedBundle',
  'previewBundle',
  'importBundle',
] as const satisfies readonly MethodName[];

/** A contract method missing from the list above (never, when the list is complete). */
type Missing = Exclude<MethodName, (typeof METHOD_NAMES)[number]>;
/** Fails to compile when a method is added to the contract and not here. */
export const METHOD_NAMES_COMPLETE: [Missing] extends [never] ? true : { missing: Missing } = true;
