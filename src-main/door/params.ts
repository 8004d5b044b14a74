import { z } from 'zod';
import { invalidParams, TASK_STATES, type Message, type TaskState } from '../../src-shared/a2a';

// Zod schemas of the door's params (ProtoJSON: lowerCamelCase, snake_case accepted too, enums as
// names or numbers). A failure names the field: -32602 "Invalid parameters: <field>: <why>".

const camel = (k: string) => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Copies snake_case keys to their camelCase names (the camelCase one wins when both are sent). */
function camelize(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (!k.includes('_')) continue;
    const c = camel(k);
    if (c in (value as object)) continue;
    out ??= { ...(value as Record<string, unknown>) };
    out[c] = v;
    delete out[k];
  }
  return out ?? value;
}

export const obj = <T extends z.ZodRawShape>(shape: T) => z.preprocess(camelize, z.object(shape));

const roleNames = ['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'] as const;
const role = z
  .union([z.enum(roleNames), z.number().int().min(0).max(2)])
  .transform((r) => (typeof r === 'number' ? roleNames[r] : r));

export const taskState = z
  .union([
    z.enum(TASK_STATES),
    z
      .number()
      .int()
      .min(0)
      .max(TASK_STATES.length - 1),
  ])
  .transform((s): TaskState => (typeof s === 'number' ? TASK_STATES[s] : s));

const part = obj({
  text: z.string().optional(),
  raw: z.string().optional(),
  url: z.string().optional(),
  data: z.unknown().optional(),
  filename: z.string().optional(),
  mediaType: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
}).refine(
  (p) => [p.text, p.raw, p.url, p.data].filter((x) => x !== undefined).length === 1,
  'a part carries exactly one of text, raw, url, data',
);

/**
 * Longest message, context and task id a door takes. A session keeps a finished task's context id
 * for as long as it runs: an id is a name, not a payload.
 */
export const MAX_ID_CHARS = 256;
const messageIdOf = z.string().min(1).max(MAX_ID_CHARS);

export const messageSchema = obj({
  messageId: messageIdOf,
  contextId: messageIdOf.optional(),
  taskId: messageIdOf.optional(),
  role,
  parts: z.array(part).min(1),
  metadata: z.record(z.string(), z.unknown()).optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
});

export const historyLength = z.number().int().min(0).optional();

/**
 * History a task answer carries when the caller sets no historyLength: all of it. The spec reads
 * an unset historyLength as "no limit", and most servers (the official SDKs' among them) answer so;
 * a caller that wants none says historyLength: 0.
 */
export const DEFAULT_HISTORY_LENGTH: number | undefined = undefined;

export const sendMessageParams = obj({
  tenant: z.string().optional(),
  message: messageSchema,
  configuration: obj({
    acceptedOutputModes: z.array(z.string()).optional(),
    historyLength,
    returnImmediately: z.boolean().optional(),
    taskPushNotificationConfig: z.unknown().optional(),
  }).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type SendMessageParams = Omit<z.infer<typeof sendMessageParams>, 'message'> & { message: Message };

export const taskIdParams = obj({
  tenant: z.string().optional(),
  id: z.string().min(1),
  historyLength,
  metadata: z.unknown().optional(),
});

/** Parses params with a schema; a failure is -32602 naming the first bad field. */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown, prefix = 'params'): z.infer<S> {
  const r = schema.safeParse(params ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = [prefix, ...issue.path.map(String)].join('.');
  throw invalidParams(field, issue.message);
}
