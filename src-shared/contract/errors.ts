// Errors cross the boundary as a reply envelope, because Electron keeps only the message of a
// thrown error. The code says what went wrong in words the UI can branch on.

export const CORE_ERROR_CODES = [
  'invalid_input',
  'unknown_command',
  'no_workspace',
  'workspace_missing',
  'not_found',
  'conflict',
  'io_error',
  'manifest_invalid',
  'port_taken',
  'launch_failed',
  'not_running',
  'door_error',
  'remote_unreachable',
  // A tool server (MCP) could not be started, reached or listed.
  'tool_server_unavailable',
  'disconnected',
  'limit_reached',
  // The caller stopped waiting (an aborted invoke), or no answer came in time.
  'canceled',
  'timeout',
  // The client may not do this here (an attached Studio outside what the host allows it).
  'forbidden',
  'internal',
] as const;
/** What went wrong, in a word the UI can branch on. */
export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];

/** The error half of a reply envelope. */
export interface CoreErrorInfo {
  code: CoreErrorCode;
  message: string;
  /** Extra facts (e.g. the current hash on a conflict); never secrets. */
  details?: Record<string, unknown>;
}

/** A reply to one command. */
export type ReplyEnvelope<T = unknown> = { ok: true; value: T } | { ok: false; error: CoreErrorInfo };

/** The typed error the CoreClient throws from an `{ok:false}` reply, and the core's handlers throw. */
export class CoreError extends Error {
  constructor(
    readonly code: CoreErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CoreError';
  }
  toInfo(): CoreErrorInfo {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}

/** Turns anything thrown into an error envelope (unknown errors keep only their message). */
export function toErrorInfo(err: unknown): CoreErrorInfo {
  if (err instanceof CoreError) return err.toInfo();
  if (
    err &&
    typeof err === 'object' &&
    'code' in err &&
    'message' in err &&
    CORE_ERROR_CODES.includes((err as CoreErrorInfo).code)
  ) {
    const e = err as CoreErrorInfo;
    return { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
  }
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

/** Throws the CoreError an envelope carries, or returns its value. */
export function unwrapReply<T>(reply: ReplyEnvelope<T>): T {
  if (reply.ok) return reply.value;
  throw new CoreError(reply.error.code, reply.error.message, reply.error.details);
}
