import { MOVED_PATH } from '../../src-shared/contract';

// When the web shell's socket drops, the Studio may have been started again on another port. A
// later web shell answers on this page's old address with where it runs now (shell/web/moved.ts
// in the core); the page asks its own origin, so only the Studio's page reads the answer. The
// answer is offered to the user only when it is a Studio address on this machine.

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** A refused or hanging answer is no answer: the socket's reconnecting goes on meanwhile. */
const ASK_TIMEOUT_MS = 3_000;

/** The address in a moved answer, when it is another Studio on this machine (http, loopback, a port). */
export function movedAddress(answer: unknown, pageOrigin: string): string | undefined {
  const url = typeof answer === 'object' && answer !== null ? (answer as { url?: unknown }).url : undefined;
  if (typeof url !== 'string' || url.length > 200) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (
    parsed.protocol !== 'http:' ||
    !LOOPBACK.has(parsed.hostname) ||
    !parsed.port ||
    parsed.username ||
    parsed.password
  )
    return undefined;
  return parsed.origin === pageOrigin ? undefined : parsed.origin;
}

/** Asks the page's own origin where the Studio runs now; undefined when nobody says it moved. */
export async function askMoved(pageOrigin: string, fetchImpl: typeof fetch = fetch): Promise<string | undefined> {
  try {
    const res = await fetchImpl(`${pageOrigin}${MOVED_PATH}`, {
      cache: 'no-store',
      credentials: 'omit',
      signal: AbortSignal.timeout(ASK_TIMEOUT_MS),
    });
    if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('application/json')) return undefined;
    return movedAddress(await res.json(), pageOrigin);
  } catch {
    return undefined;
  }
}
