import { z } from 'zod';

// The A2A JSON-RPC wire as every caller of a door sees it: the request envelope, the answer
// envelope, the shapes of a task and a message, the 0.3 method names, and a bounded read of an
// answer. The peer client (a capsule calling another agent), the door client (the CLI and the
// Studio calling a session) and the gateway (passing an outside call through) build on these,
// so a change of the wire is made here once. Each keeps its own errors: they speak to different
// people (a model, a user at a terminal, an outside caller), so a decoded answer is returned as a
// value and the caller says what it means.

/** The A2A methods by their A2A 0.3 names (0.3 used path-like names; 1.0 renamed them). */
export const METHODS_03_TO_10: Readonly<Record<string, string>> = {
  'message/send': 'SendMessage',
  'message/stream': 'SendStreamingMessage',
  'tasks/get': 'GetTask',
  'tasks/cancel': 'CancelTask',
  'tasks/resubscribe': 'SubscribeToTask',
};
/** The same, from the 1.0 name to the 0.3 one. */
export const METHODS_10_TO_03: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(METHODS_03_TO_10).map(([v03, v10]) => [v10, v03]),
);

/** What an answer may carry: a result or an error (the id is not checked: one request per HTTP exchange). */
const answerEnvelope = z.object({
  jsonrpc: z.literal('2.0'),
  result: z.unknown().optional(),
  error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
});

export type RpcErrorBody = { code: number; message: string; data?: unknown };

/** An answer read off the wire: its result, its JSON-RPC error, or why it is not JSON-RPC at all. */
export type DecodedAnswer =
  | { ok: true; result: unknown }
  | { ok: false; error: RpcErrorBody }
  | { ok: false; notRpc: 'not_json' | 'not_jsonrpc' };

/** Reads one JSON-RPC answer (a plain body or one SSE event's data). */
export function decodeAnswer(text: string): DecodedAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, notRpc: 'not_json' };
  }
  const env = answerEnvelope.safeParse(json);
  if (!env.success) return { ok: false, notRpc: 'not_jsonrpc' };
  return env.data.error ? { ok: false, error: env.data.error } : { ok: true, result: env.data.result };
}

let nextId = 1;

/** One request's body, with an id unique in this process. */
export const requestBody = (method: string, params: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });

/** A request as a server reads it: enough to route and refuse it; `undefined` when it is not one. */
export function readRequest(raw: string): { id: string | number | null; method: string; params: any } | undefined {
  try {
    return requestOf(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** readRequest of a body already parsed. */
export function requestOf(env: any): { id: string | number | null; method: string; params: any } | undefined {
  if (!env || typeof env !== 'object' || typeof env.method !== 'string') return undefined;
  const id = typeof env.id === 'string' || typeof env.id === 'number' ? env.id : null;
  return { id, method: env.method, params: env.params };
}

export const taskShape = z.looseObject({ id: z.string().min(1), status: z.looseObject({ state: z.string() }) });
export const messageShape = z.looseObject({ messageId: z.string(), role: z.string(), parts: z.array(z.unknown()) });
/** SendMessage answers a task, or a message when the agent answered at once. */
export const sendResultShape = z.union([z.looseObject({ task: taskShape }), z.looseObject({ message: messageShape })]);
/** One ListTasks page. */
export const taskPageShape = z.looseObject({
  tasks: z.array(taskShape).max(100).optional(),
  nextPageToken: z.string().optional(),
});

/** `value` when it has the shape (typed as the caller expects), else undefined. */
export function shapedAs<T>(schema: z.ZodType, value: unknown): T | undefined {
  const r = schema.safeParse(value);
  return r.success ? (r.data as T) : undefined;
}

/** The longest answer read from an agent (a door takes requests up to 1 MiB; answers carry history). */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * An answer's body as text, never more than `max` bytes whether or not it said its length.
 * `tooBig` and `broken` build the caller's own error (past the bound; the connection broke off).
 */
export async function readBounded(
  res: Response,
  fail: { tooBig: () => Error; broken: (err: Error) => Error },
  max = MAX_ANSWER_BYTES,
): Promise<string> {
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body?.cancel().catch(() => undefined);
    throw fail.tooBig();
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  try {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > max) {
        over = true;
        break;
      }
      chunks.push(chunk);
    }
  } catch (err) {
    throw fail.broken(err as Error);
  }
  if (over) {
    await res.body.cancel().catch(() => undefined);
    throw fail.tooBig();
  }
  return Buffer.concat(chunks).toString('utf8');
}
