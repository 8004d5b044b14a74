import type { IncomingHttpHeaders } from 'node:http';

// Forwarding one JSON-RPC call to a capsule's door (loopback). Only the protocol's own headers
// travel: never the caller's Authorization, cookies, Origin or the peer header capsules use.

export interface ForwardInit {
  doorUrl: string;
  body: string;
  headers: IncomingHttpHeaders;
  query: Record<string, unknown>;
  /** Overrides the A2A-Version sent to the door (0.3 compatibility speaks 1.0 to the door). */
  version?: string;
  signal: AbortSignal;
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);

export function doorHeaders(
  h: IncomingHttpHeaders,
  query: Record<string, unknown>,
  version?: string,
): Record<string, string> {
  const out: Record<string, string> = {
    'content-type': one(h['content-type']) ?? 'application/json',
    accept: one(h.accept) ?? 'application/json',
  };
  const v =
    version ?? one(h['a2a-version']) ?? (typeof query['A2A-Version'] === 'string' ? query['A2A-Version'] : undefined);
  if (v !== undefined) out['a2a-version'] = v;
  const ext = one(h['a2a-extensions']) ?? one(h['x-a2a-extensions']);
  if (ext !== undefined) out['a2a-extensions'] = ext;
  const tp = one(h.traceparent);
  if (tp !== undefined) out.traceparent = tp;
  return out;
}

export function forwardToDoor(init: ForwardInit): Promise<Response> {
  return fetch(init.doorUrl, {
    method: 'POST',
    headers: doorHeaders(init.headers, init.query, init.version),
    body: init.body,
    signal: init.signal,
    redirect: 'manual',
  });
}

/** Headers of the door's answer worth passing back to the caller. */
export function answerHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['content-type', 'a2a-extensions', 'a2a-version', 'cache-control']) {
    const v = res.headers.get(name);
    if (v !== null) out[name] = v;
  }
  return out;
}
