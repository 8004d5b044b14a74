import { UserError } from './errors';

// JSON-RPC calls from the terminal to a session's door (A2A 1.0).

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcAnswer<T> = { result: T; error?: undefined } | { result?: undefined; error: RpcError };

let nextId = 1;

export async function callDoor<T>(url: string, method: string, params: unknown, timeoutMs = 10_000): Promise<RpcAnswer<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    throw new UserError(`the door at ${url} does not answer (${cause})`);
  }
  let body: { result?: T; error?: RpcError };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new UserError(`the door at ${url} answered HTTP ${res.status} without JSON`);
  }
  if (body.error) return { error: body.error };
  return { result: body.result as T };
}

/** The ErrorInfo metadata of an A2A error, if it carries one. */
export function errorMetadata(error: RpcError): Record<string, string> {
  const info = Array.isArray(error.data) ? error.data.find((d) => d && typeof d === 'object' && 'metadata' in d) : undefined;
  return (info as { metadata?: Record<string, string> } | undefined)?.metadata ?? {};
}
