import { connectUrls, type PolicyVerdict } from './policy';

// One HTTP request to a place the network policy allows, redirects followed by hand so that every
// hop is checked before fetch connects to it (fetch's own following would connect first and ask
// later). The A2A peer client and the MCP client of a capsule both send through here, so a remote
// MCP server is held to exactly the rule a peer is.

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface GuardedRequest {
  method: string;
  body?: RequestInit['body'];
  headers?: RequestInit['headers'];
  signal?: AbortSignal;
}

export interface GuardOptions {
  /** The policy's verdict for one place; throws (a traced PolicyRefusal) when it is refused. */
  allowOrThrow(url: string): Extract<PolicyVerdict, { ok: true }>;
  maxRedirects: number;
  /** A fetch failure (connection refused, timeout) at `url`, in the caller's words. */
  networkError(url: string, err: unknown): Error;
  /** A redirect without a Location, or one too many. */
  redirectError(kind: 'no_location' | 'too_many', url: string, status: number): Error;
}

const refused = (err: unknown) => (err as { cause?: { code?: string } })?.cause?.code === 'ECONNREFUSED';

/** Sends the request, following redirects; the response is never a redirect. */
export async function fetchGuarded(url: string, init: GuardedRequest, opts: GuardOptions): Promise<Response> {
  let current = url;
  let { method, body } = init;
  for (let hop = 0; ; hop++) {
    const targets = connectUrls(current, opts.allowOrThrow(current));
    let res: Response | undefined;
    for (let i = 0; !res; i++) {
      try {
        res = await fetch(targets[i], { method, body, headers: init.headers, redirect: 'manual', signal: init.signal });
      } catch (err) {
        // localhost: a refused connection on one loopback address moves on to the next allowed one
        // (nothing was sent), so the place is reached on the address family it listens on.
        if (i + 1 < targets.length && refused(err) && !init.signal?.aborted) continue;
        throw opts.networkError(current, err);
      }
    }
    if (!REDIRECTS.has(res.status)) return res;
    const location = res.headers.get('location');
    await res.body?.cancel().catch(() => {});
    if (!location) throw opts.redirectError('no_location', current, res.status);
    if (hop >= opts.maxRedirects) throw opts.redirectError('too_many', url, res.status);
    current = new URL(location, current).href;
    // As fetch does: 303, and 301/302 after a POST, continue as a GET without a body.
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
  }
}
