import { z } from 'zod';
import { invalidParams, type Task } from '../../../src-shared/a2a';
import { withHistory } from '../../runtime/tasks';
import type { MethodHandler } from '../methods';
import { DEFAULT_HISTORY_LENGTH, historyLength, obj, parseParams, taskState } from '../params';

// ListTasks (docs/door.md): filters, newest first by status timestamp, opaque cursor paging;
// nextPageToken is always present ("" on the last page); artifacts only with includeArtifacts.

const listParams = obj({
  tenant: z.string().optional(),
  contextId: z.string().optional(),
  status: taskState.optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
  pageToken: z.string().optional(),
  historyLength,
  statusTimestampAfter: z.string().optional(),
  includeArtifacts: z.boolean().optional(),
});

type Cursor = [string, string];
const stamp = (t: Task) => t.status.timestamp ?? '';
/** Newest first; ties broken by id (ids are time-ordered). */
const newerFirst = (a: Task, b: Task) =>
  stamp(a) === stamp(b) ? (a.id < b.id ? 1 : -1) : stamp(a) < stamp(b) ? 1 : -1;

const encode = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decode(token: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(c) && c.length === 2 && typeof c[0] === 'string' && typeof c[1] === 'string') return c as Cursor;
  } catch {}
  throw invalidParams('params.pageToken', 'not a page token this door issued');
}

export const listTasks: MethodHandler = async (ctx) => {
  const p = parseParams(listParams, ctx.params);
  // ProtoJSON's default state means "no filter".
  const status = p.status === 'TASK_STATE_UNSPECIFIED' ? undefined : p.status;
  let after: string | undefined;
  if (p.statusTimestampAfter !== undefined) {
    const ms = Date.parse(p.statusTimestampAfter);
    if (Number.isNaN(ms))
      throw invalidParams('params.statusTimestampAfter', 'an RFC 3339 timestamp such as 2026-10-13T09:00:00.000Z');
    after = new Date(ms).toISOString();
  }
  const cursor = p.pageToken ? decode(p.pageToken) : undefined;
  const all = ctx.session
    .listTasks()
    .filter(
      (t) =>
        (p.contextId === undefined || t.contextId === p.contextId) &&
        (status === undefined || t.status.state === status),
    )
    .filter((t) => after === undefined || stamp(t) >= after)
    .sort(newerFirst);
  const pageSize = p.pageSize ?? 50;
  let start = 0;
  if (cursor) {
    const [ts, id] = cursor;
    start = all.findIndex((t) => stamp(t) < ts || (stamp(t) === ts && t.id < id));
    if (start < 0) start = all.length;
  }
  const page = all.slice(start, start + pageSize);
  const more = start + pageSize < all.length;
  const last = page[page.length - 1];
  const history = p.historyLength ?? DEFAULT_HISTORY_LENGTH;
  // Older tasks are listed from memory with their status only; their messages and answer (and a
  // status text too long to keep) come from the records, read for the tasks of this page alone,
  // and the messages and answer only when the caller asked for them.
  const wantsPayload = p.includeArtifacts === true || history !== 0;
  // One task at a time, off the main thread (at most a page of them).
  const tasks: Task[] = [];
  for (const listed of page) {
    const t = (await ctx.session.readTask(listed.id, undefined, wantsPayload)) ?? listed;
    const shown = withHistory(t, history);
    if (p.includeArtifacts) tasks.push({ ...shown, artifacts: shown.artifacts ?? [] });
    else {
      const { artifacts: _omit, ...rest } = shown;
      tasks.push(rest);
    }
  }
  return { tasks, nextPageToken: more && last ? encode([stamp(last), last.id]) : '', pageSize, totalSize: all.length };
};
