import { z } from 'zod';
import {
  base64Bytes,
  MAX_DATA_CHARS,
  MAX_FILE_BYTES,
  MAX_FILES,
  MAX_MESSAGE_BYTES,
  MAX_TEXT_CHARS,
} from './task-limits';

// What the Studio may send a capsule in one message: text, a data part, files, a reply to a task
// waiting for input. Bounded here, at the boundary, so a message the door would refuse for its
// size (1 MiB per request) is refused with a sentence that names the part, before it leaves.

export {
  base64Bytes,
  MAX_DATA_CHARS,
  MAX_FILE_BYTES,
  MAX_FILES,
  MAX_MESSAGE_BYTES,
  MAX_TEXT_CHARS,
} from './task-limits';

/** The longest a blocking task.send waits for its task (the contract client gives every command 11 minutes). */
export const MAX_SEND_WAIT_MS = 10 * 60_000;

const kib = (n: number) => `${Math.floor(n / 1024)} KiB`;

const fileInput = z.strictObject({
  name: z.string().min(1).max(255),
  mediaType: z
    .string()
    .max(127)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'a media type such as text/plain')
    .optional(),
  /** The file's content, base64 (standard alphabet, padded). */
  bytes: z
    .string()
    .max(Math.ceil(MAX_FILE_BYTES / 3) * 4)
    .refine((s) => s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s), 'not base64 (standard alphabet, padded)'),
});

/** The input of task.send. */
export const taskSendInput = z
  .strictObject({
    capsuleId: z.string().min(1).max(200),
    text: z.string().max(MAX_TEXT_CHARS).optional(),
    /** Answers a task waiting for input: the message continues that task (A2A: same taskId and contextId). */
    taskId: z.string().min(1).max(256).optional(),
    /** Continues a conversation; with taskId it must be that task's context. */
    contextId: z.string().min(1).max(256).optional(),
    /** Any JSON value, sent as a data part (application/json). */
    data: z.unknown().optional(),
    files: z.array(fileInput).max(MAX_FILES, `at most ${MAX_FILES} files in one message`).optional(),
    returnImmediately: z.boolean().optional(),
    /** How long to wait for the task to end or ask for input: 0 does not block (as returnImmediately); at most and by default 10 minutes, then the answer is the task as it is. */
    timeoutMs: z.number().int().min(0).max(MAX_SEND_WAIT_MS).optional(),
  })
  .superRefine((v, ctx) => {
    const dataJson = v.data === undefined ? undefined : jsonOf(v.data);
    if (v.data !== undefined && dataJson === undefined)
      ctx.addIssue({ code: 'custom', path: ['data'], message: 'not a JSON value' });
    if (dataJson !== undefined && dataJson.length > MAX_DATA_CHARS) {
      ctx.addIssue({
        code: 'custom',
        path: ['data'],
        message: `the data part is ${kib(dataJson.length)} of JSON; at most ${kib(MAX_DATA_CHARS)}`,
      });
    }
    const fileBytes = (v.files ?? []).reduce((n, f) => n + base64Bytes(f.bytes), 0);
    if (fileBytes > MAX_FILE_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['files'],
        message: `the files add up to ${kib(fileBytes)}; at most ${kib(MAX_FILE_BYTES)} in one message`,
      });
    }
    if (!v.text?.trim() && v.data === undefined && !v.files?.length) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'a message needs text, a data part or a file' });
    }
    const bytes =
      new TextEncoder().encode(v.text ?? '').length +
      (dataJson?.length ?? 0) +
      (v.files ?? []).reduce((n, f) => n + f.bytes.length + f.name.length, 0);
    if (bytes > MAX_MESSAGE_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `the message is ${kib(bytes)} as sent; a door takes at most 1 MiB per request, so keep it under ${kib(MAX_MESSAGE_BYTES)}`,
      });
    }
  });

function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** One problem of a data part against the capsule's `accepts` schema: `field` is a path inside the data (`priority`, `items[0].name`; empty for the whole value). */
export interface DataProblem {
  field: string;
  message: string;
}

/** What task.checkData answers. */
export interface DataCheck {
  /** Whether the capsule declares an input contract at all. */
  contract: boolean;
  /** Every problem ajv finds (empty when the data fits). */
  problems: DataProblem[];
}

export const taskCheckDataInput = z.strictObject({
  capsuleId: z.string().min(1).max(200),
  data: z
    .unknown()
    .refine((d) => (jsonOf(d)?.length ?? Infinity) <= MAX_DATA_CHARS, `a JSON value of at most ${kib(MAX_DATA_CHARS)}`),
});
