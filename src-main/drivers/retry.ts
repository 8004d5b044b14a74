import { AbortedError, InferenceError, type TurnRequest } from './types';
import type { Failure } from './failure';

// Our retries are the only ones (the SDKs are built with maxRetries: 0), so each one is visible
// to the loop through onRetry and bounded here. A turn is retried only while nothing of it has
// reached onFrame: replaying a half-streamed turn would show the live view its text twice.

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  /** Cap on any one wait, retry-after included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 20_000 };

export interface AttemptState {
  /** Set by the attempt once a frame went out; failures after that are final. */
  streamed: boolean;
}

export async function withRetries<T>(
  req: Pick<TurnRequest, 'signal' | 'onRetry'>,
  policy: Partial<RetryPolicy> | undefined,
  classify: (err: unknown) => Failure,
  attempt: (state: AttemptState) => Promise<T>,
): Promise<T> {
  const p = { ...DEFAULT_RETRY, ...policy };
  for (let n = 0; ; n++) {
    if (req.signal.aborted) throw new AbortedError();
    const state: AttemptState = { streamed: false };
    try {
      return await attempt(state);
    } catch (err) {
      if (req.signal.aborted || err instanceof AbortedError) throw new AbortedError();
      if (err instanceof InferenceError) throw err;
      const failure = classify(err);
      if (!failure.retryable || n >= p.retries || state.streamed) {
        const suffix = state.streamed && failure.retryable ? ' (the stream broke after output had started)' : '';
        throw new InferenceError(
          `${failure.message}${suffix}${n > 0 ? ` after ${n + 1} attempts` : ''}`,
          failure.status,
        );
      }
      const backoff = p.baseDelayMs * 2 ** n;
      const delayMs = Math.min(p.maxDelayMs, failure.retryAfterMs ?? backoff);
      req.onRetry?.({ attempt: n + 1, delayMs, reason: failure.message });
      await pause(delayMs, req.signal);
    }
  }
}

/** Waits, or throws AbortedError as soon as the signal fires. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
