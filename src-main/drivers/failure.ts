import { maskSecrets } from '../trace';

// Turns whatever an SDK or the socket threw into one plain description: what to tell the trace,
// and whether another attempt may help. Messages are built here from status, error type and the
// provider's message, masked, so neither a key nor request headers can ride along.

export interface Failure {
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  message: string;
}

type ErrorClass = abstract new (...args: any[]) => Error;

/** The error classes of one SDK (both SDKs name them alike). */
export interface SdkErrors {
  APIError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

const RESET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ECONNABORTED',
]);
const RETRYABLE_STREAM_ERRORS = /overloaded|api_error|server_error|rate_limit|timeout/i;

export function classifyFailure(
  provider: string,
  err: unknown,
  sdk: SdkErrors,
  secrets: readonly (string | undefined)[],
): Failure {
  const mask = (s: string) =>
    maskSecrets(
      s,
      secrets.filter((x): x is string => !!x),
    ).slice(0, 400);
  if (err instanceof sdk.APIConnectionTimeoutError)
    return { retryable: true, message: `${provider}: request timed out` };
  if (err instanceof sdk.APIConnectionError) {
    return { retryable: true, message: mask(`${provider}: connection failed (${socketReason(err)})`) };
  }
  if (err instanceof sdk.APIError) {
    const e = err as Error & { status?: number; error?: unknown; headers?: Headers };
    const detail = errorDetail(e.error);
    if (typeof e.status !== 'number') {
      // An error event inside an already open stream.
      return {
        retryable: RETRYABLE_STREAM_ERRORS.test(detail),
        message: mask(`${provider}: stream error${detail ? ` — ${detail}` : ''}`),
      };
    }
    const status = e.status;
    // The provider may say outright whether a retry can help (x-should-retry), as the SDKs honour.
    const should = e.headers?.get?.('x-should-retry');
    const retryable = should === 'true' || (should !== 'false' && (status === 429 || status === 408 || status >= 500));
    return {
      retryable,
      status,
      retryAfterMs: retryable ? retryAfter(e.headers) : undefined,
      message: mask(`${provider}: HTTP ${status}${detail ? ` — ${detail}` : ''}`),
    };
  }
  const reason = socketReason(err);
  if (reason !== undefined) return { retryable: true, message: mask(`${provider}: connection reset (${reason})`) };
  return { retryable: false, message: mask(`${provider}: ${err instanceof Error ? err.message : String(err)}`) };
}

/** The error type and message of a provider's error body ({error:{type,message}} or {type,message}). */
function errorDetail(body: unknown): string {
  if (!body || typeof body !== 'object') return typeof body === 'string' ? body : '';
  const inner = (body as { error?: unknown }).error;
  const e = (inner && typeof inner === 'object' ? inner : body) as {
    type?: unknown;
    code?: unknown;
    message?: unknown;
  };
  const kind = typeof e.type === 'string' ? e.type : typeof e.code === 'string' ? e.code : '';
  const msg = typeof e.message === 'string' ? e.message : '';
  return [kind, msg].filter(Boolean).join(': ');
}

/** A socket-level cause (reset, refused, closed mid-body), or undefined if the error is not one. */
function socketReason(err: unknown): string | undefined {
  for (let e: any = err, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (typeof e.code === 'string' && RESET_CODES.has(e.code)) return e.code;
    if (e instanceof TypeError && /terminated|fetch failed|other side closed/i.test(e.message)) {
      const deeper = socketReason(e.cause);
      return deeper ?? e.message;
    }
  }
  return err instanceof Error && /connection error/i.test(err.message) ? 'connection error' : undefined;
}

/** retry-after-ms, or retry-after in seconds or as an HTTP date. */
export function retryAfter(headers: Headers | undefined): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}
