import { z } from 'zod';
import { invalidParams, type TaskPushNotificationConfig } from '../../../src-shared/a2a';

// The rules for a webhook (docs/door.md, push notifications): https only, except plain http to this machine for local
// testing, and never userinfo in the URL (credentials belong in `authentication`, where they are
// kept out of traces). Any https host is accepted: the caller owns the webhook it registers.

/** At most this many configs per task; an 11th is invalid params. */
export const MAX_CONFIGS_PER_TASK = 10;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

// Values that become HTTP header values: no control characters (a bad one would make every POST
// fail with an error quoting it).
const hasControl = (v: string) => [...v].some((c) => (c < ' ' && c !== '\t') || c === '\x7f');
const headerSafe = z.string().refine((v) => !hasControl(v), 'must not contain control characters');

const authentication = z.object({
  scheme: z
    .string()
    .min(1, 'scheme is required')
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'an HTTP auth scheme such as Bearer'),
  credentials: headerSafe.optional(),
});

// ProtoJSON readers accept snake_case too; task_id is the one field here that has a second spelling.
const configSchema = z.preprocess(
  (v) => {
    if (v && typeof v === 'object' && !('taskId' in v) && 'task_id' in v) {
      const { task_id, ...rest } = v as Record<string, unknown>;
      return { ...rest, taskId: task_id };
    }
    return v;
  },
  z.object({
    tenant: z.string().optional(),
    id: z.string().max(200).optional(),
    taskId: z.string().optional(),
    url: z.string().min(1, 'url is required'),
    token: headerSafe.optional(),
    authentication: authentication.optional(),
  }),
);

/** Why a webhook URL is refused, or undefined when it is acceptable. */
export function webhookUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (url.username || url.password) return 'must not carry user:password@ userinfo; use authentication instead';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return LOCAL_HOSTS.has(url.hostname.toLowerCase())
      ? undefined
      : 'plain http is only allowed to localhost, 127.0.0.1 or ::1; use https';
  }
  return `scheme ${url.protocol} is not allowed; use https`;
}

/**
 * Parses a push config from request params. `field` names where it came from in errors
 * (`params` for Create, `params.configuration.taskPushNotificationConfig` inline).
 * Throws invalid params (-32602) naming the problem.
 */
export function parsePushConfig(input: unknown, field = 'params'): TaskPushNotificationConfig {
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.length ? `${field}.${issue.path.join('.')}` : field;
    throw invalidParams(path, issue.message);
  }
  const cfg = parsed.data;
  const problem = webhookUrlProblem(cfg.url);
  if (problem) throw invalidParams(`${field}.url`, problem);
  const out: TaskPushNotificationConfig = { url: cfg.url };
  if (cfg.tenant) out.tenant = cfg.tenant;
  if (cfg.id) out.id = cfg.id;
  if (cfg.taskId) out.taskId = cfg.taskId;
  if (cfg.token !== undefined && cfg.token !== '') out.token = cfg.token;
  if (cfg.authentication) out.authentication = cfg.authentication;
  return out;
}

/** `{taskId, id}` of Get/Delete; `{taskId}` of List (id then optional). */
export function parseConfigRef(input: unknown, needId: boolean): { taskId: string; id?: string } {
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const taskId = o.taskId ?? o.task_id;
  if (typeof taskId !== 'string' || !taskId) throw invalidParams('params.taskId', 'taskId is required');
  if (!needId) return { taskId };
  if (typeof o.id !== 'string' || !o.id) throw invalidParams('params.id', 'id is required');
  return { taskId, id: o.id };
}
