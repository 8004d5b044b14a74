// A mistake the user can fix (bad flag, unknown session, refused request): printed as one line,
// exit 1, never a stack trace.
export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
