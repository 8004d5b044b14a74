// The bounds of one message the Studio sends a capsule (see task-send.ts), apart from its schema:
// the console checks them as the user picks files, and must not load the schema library for it.

/** Files in one message, decoded (base64 grows them by a third; the door takes 1 MiB per request). */
export const MAX_FILE_BYTES = 700 * 1024;
/** Files in one message. */
export const MAX_FILES = 8;
/** A data part, as JSON text. */
export const MAX_DATA_CHARS = 256 * 1024;
/** Text of one message. */
export const MAX_TEXT_CHARS = 200_000;
/** The whole message as the door receives it, in UTF-8 bytes (the door's body limit is 1 MiB). */
export const MAX_MESSAGE_BYTES = 960 * 1024;

/** Bytes a base64 text decodes to. */
export const base64Bytes = (b64: string): number =>
  Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
