// Sizes both sides of a bundle transfer agree on, kept apart from the contract's schemas so the renderer can use them without zod.

/** Bytes per readExport / uploadChunk piece. */
export const UPLOAD_CHUNK = 512 * 1024;
/** The largest bundle the app takes in. */
export const MAX_UPLOAD = 16 * 1024 ** 3;
