import type { JsonRpcError, TaskState } from './types';

/** A JSON-RPC error a handler throws; the door turns it into an error envelope. */
export class A2AError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
  toJSON(): JsonRpcError {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

const errorInfo = (reason: string, metadata?: Record<string, string>) => [
  {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason,
    domain: 'a2a-protocol.org',
    ...(metadata ? { metadata } : {}),
  },
];

const badRequest = (field: string, description: string) => [
  { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description }] },
];

export const parseError = (detail = 'Invalid JSON payload') => new A2AError(-32700, detail);
export const invalidRequest = (detail = 'Request payload validation error') => new A2AError(-32600, detail);
export const methodNotFound = (method: string) => new A2AError(-32601, `Method not found: ${method}`);
export const invalidParams = (field: string, description: string) =>
  new A2AError(-32602, `Invalid parameters: ${field}: ${description}`, badRequest(field, description));
export const internalError = (detail = 'Internal error') => new A2AError(-32603, detail);

export const taskNotFound = (taskId: string) =>
  new A2AError(-32001, 'Task not found', errorInfo('TASK_NOT_FOUND', { taskId }));
export const taskNotCancelable = (taskId: string, state: TaskState) =>
  new A2AError(
    -32002,
    `Task cannot be canceled: it is already ${state}`,
    errorInfo('TASK_NOT_CANCELABLE', { taskId, state }),
  );
export const pushNotSupported = () =>
  new A2AError(-32003, 'Push notifications are not supported', errorInfo('PUSH_NOTIFICATION_NOT_SUPPORTED'));
export const unsupportedOperation = (detail: string, metadata?: Record<string, string>) =>
  new A2AError(-32004, detail, errorInfo('UNSUPPORTED_OPERATION', metadata));
export const contentTypeNotSupported = (type: string) =>
  new A2AError(
    -32005,
    `Content type not supported: ${type || '(none)'}; send application/json`,
    errorInfo('CONTENT_TYPE_NOT_SUPPORTED'),
  );
export const extendedCardNotConfigured = () =>
  new A2AError(-32007, 'Extended agent card is not configured', errorInfo('EXTENDED_AGENT_CARD_NOT_CONFIGURED'));
export const extensionRequired = (uri: string) =>
  new A2AError(-32008, `Extension required: ${uri}`, errorInfo('EXTENSION_SUPPORT_REQUIRED', { uri }));
export const versionNotSupported = (got: string | undefined) =>
  new A2AError(
    -32009,
    got
      ? `A2A version ${got} is not supported; send A2A-Version: 1.0`
      : 'A2A-Version header missing (read as 0.3); send A2A-Version: 1.0',
    errorInfo('VERSION_NOT_SUPPORTED', { version: got ?? '' }),
  );
