import { checkTarget, fetchGuarded, PolicyRefusal } from '../../peer';

// The fetch a remote MCP server is reached through: every place, redirects included, is checked
// against the capsule's allow list before any connection (the peer path's own guarded request),
// the manifest's headers are added, and a response body larger than the bound fails to read
// instead of filling memory.

type TraceFn = (event: { event_type: string } & Record<string, unknown>) => void;

export interface McpFetchOptions {
  server: string;
  /** capabilities.network.allow, read at each request (a running session's list can change). */
  allow: () => readonly string[];
  headers?: Record<string, string>;
  trace: TraceFn;
  /** The most bytes one response body may carry. */
  maxBytes: number;
}

/** A response whose body errors once more than `max` bytes have come through it. */
function bounded(res: Response, max: number, server: string): Response {
  if (!res.body) return res;
  let seen = 0;
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, ctrl) {
      seen += chunk.byteLength;
      if (seen > max) ctrl.error(new Error(`MCP server "${server}" sent a response over ${max} bytes; it was cut off`));
      else ctrl.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(limit), {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

export function createMcpFetch(opts: McpFetchOptions): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const headers = new Headers(init.headers);
    for (const [k, v] of Object.entries(opts.headers ?? {})) headers.set(k, v);
    const res = await fetchGuarded(
      String(url),
      { method: init.method ?? 'GET', body: init.body, headers, signal: init.signal ?? undefined },
      {
        allowOrThrow: (place) => {
          const verdict = checkTarget(place, opts.allow());
          if (verdict.ok) return verdict;
          opts.trace({ event_type: 'network_refused', url: place, reason: verdict.reason, mcp_server: opts.server });
          throw new PolicyRefusal(place, verdict.reason);
        },
        maxRedirects: 5,
        networkError: (place, err) =>
          init.signal?.aborted
            ? (err as Error)
            : new Error(
                `${place} is not reachable (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message})`,
              ),
        redirectError: (kind, place, status) =>
          new Error(
            kind === 'no_location'
              ? `${place} answered ${status} without a Location`
              : `more than 5 redirects from ${place}`,
          ),
      },
    );
    return bounded(res, opts.maxBytes, opts.server);
  };
}
