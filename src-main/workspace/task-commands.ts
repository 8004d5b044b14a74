import {
  A2AError,
  INTERRUPTED_STATES,
  isTerminal,
  methodNotFound,
  type Message,
  type Part,
  type Task,
} from '../../src-shared/a2a';
import {
  CoreError,
  MAX_SEND_WAIT_MS,
  type CancelAnswer,
  type CommandArgs,
  type DataProblem,
  type StopSessionAnswer,
} from '../../src-shared/contract';
import { newMessageId } from '../../src-shared/ids';
import { acceptsProblems, callSession } from '../door';
import type { Session } from '../runtime';
import type { StudioContext } from './context';
import type { Handlers } from './handlers';

// The Studio's task commands (send, reply, get, list, cancel, cancel all). The Studio hosts its
// sessions, so it calls their door methods in process (callSession): the same method table
// (exports.methods narrows it), the same params checks, limits and masked answers an external A2A
// caller meets, without HTTP. Nothing goes through a socket, so no connection cap can refuse the
// Studio's own calls, and nothing is encoded twice. Cancel asks the session straight (its ids were
// checked at the contract's boundary; docs/cancel-walk.md). Task progress needs no command at all:
// it arrives as task.updated, once. `ctx.sessions.session(id)` finds a capsule's running session,
// with `not_found` / `not_running` when there is none.

/** A door's JSON-RPC error as the contract's error: task not found keeps its code, a bad field says which. */
export function asCoreError(err: unknown): unknown {
  if (!(err instanceof A2AError)) return err;
  const message = `${err.message} (${err.code})`; // as a JSON-RPC client shows it
  if (err.code === -32001) return new CoreError('not_found', message, { rpcCode: err.code });
  if (err.code === -32602) {
    const field = fieldOf(err.data);
    return new CoreError('invalid_input', message, { rpcCode: err.code, ...(field ? { field } : {}) });
  }
  if (err.code === -32601)
    return new CoreError('door_error', `${message}: this capsule's exports.methods leaves it out`, {
      rpcCode: err.code,
    });
  return new CoreError('door_error', message, { rpcCode: err.code });
}

/** The field a BadRequest error detail names (params.message.parts[1].data.priority). */
function fieldOf(data: unknown): string | undefined {
  const bad = Array.isArray(data) ? data.find((d) => d && typeof d === 'object' && 'fieldViolations' in d) : undefined;
  const v = (bad as { fieldViolations?: { field?: unknown }[] } | undefined)?.fieldViolations?.[0]?.field;
  return typeof v === 'string' ? v : undefined;
}

/** One door method of a session the Studio hosts, called in process; its A2A error becomes a CoreError. */
export async function callDoorMethod<T>(session: Session, method: string, params: unknown): Promise<T> {
  try {
    return (await callSession(session, method, params)) as T;
  } catch (err) {
    throw asCoreError(err);
  }
}

/** Text first, then the files, then the data part (the order `capsule send` uses). */
export function messageOf(args: CommandArgs<'task.send'>): Message {
  const parts: Part[] = [
    ...(args.text?.trim() ? [{ text: args.text }] : []),
    ...(args.files ?? []).map((f) => ({
      raw: f.bytes,
      filename: f.name,
      mediaType: f.mediaType ?? 'application/octet-stream',
    })),
    ...(args.data !== undefined ? [{ data: args.data, mediaType: 'application/json' }] : []),
  ];
  return {
    messageId: newMessageId(),
    role: 'ROLE_USER',
    parts,
    ...(args.contextId ? { contextId: args.contextId } : {}),
    ...(args.taskId ? { taskId: args.taskId } : {}),
  };
}

/** The most tasks task.list reads from a door (two ListTasks pages). */
const MAX_LISTED = 200;
const PAGE = 100;

/** A data part that misses the contract is refused before it is sent, with every problem (the door names only the first). */
function checkBeforeSending(session: Session, args: CommandArgs<'task.send'>): void {
  const schema = session.manifest.accepts as Record<string, unknown> | undefined;
  if (!schema || args.taskId) return; // a reply continues its task; the contract is for what starts one
  const problems: DataProblem[] =
    args.data === undefined
      ? [{ field: '', message: 'this capsule takes a data part matching its input contract (accepts); none was sent' }]
      : acceptsProblems(schema, args.data);
  if (!problems.length) return;
  const first = problems[0];
  throw new CoreError('invalid_input', `data${first.field ? `.${first.field}` : ''}: ${first.message}`, { problems });
}

/**
 * task.cancel: the task and its residue, or the refusal (a task that already ended) as an answer.
 * The session is asked straight, as the door's CancelTask asks it (same `by`, same answer): the
 * contract checked the ids at the boundary, so nothing is parsed again. A capsule whose
 * exports.methods leaves CancelTask out still refuses it, as its door would.
 */
export async function cancelTask(session: Session, id: string): Promise<CancelAnswer> {
  try {
    if (!session.serves('CancelTask')) throw methodNotFound('CancelTask');
    return await session.cancelTask(id, 'client');
  } catch (err) {
    if (!(err instanceof A2AError)) throw err;
    const state = metadataOf(err.data).state;
    return {
      residue: [],
      refused: { code: err.code, message: `${err.message} (${err.code})`, ...(state ? { state: state as never } : {}) },
    };
  }
}

/** The ErrorInfo metadata of an A2A error (the state of a task that cannot be canceled). */
function metadataOf(data: unknown): Record<string, string> {
  const info = Array.isArray(data) ? data.find((d) => d && typeof d === 'object' && 'metadata' in d) : undefined;
  const metadata = (info as { metadata?: unknown } | undefined)?.metadata;
  return metadata && typeof metadata === 'object' ? (metadata as Record<string, string>) : {};
}

/** murmur.StopSession: every task canceled, what was left behind; the session keeps running. */
export const stopTasks = (session: Session): Promise<Omit<StopSessionAnswer, 'ended'>> =>
  callDoorMethod(session, 'murmur.StopSession', {});

async function listTasks(session: Session): Promise<Task[]> {
  const tasks: Task[] = [];
  let pageToken = '';
  do {
    const page = await callDoorMethod<{ tasks: Task[]; nextPageToken: string }>(session, 'ListTasks', {
      pageSize: PAGE,
      includeArtifacts: true,
      ...(pageToken ? { pageToken } : {}),
    });
    tasks.push(...page.tasks);
    pageToken = page.nextPageToken;
  } while (pageToken && tasks.length < MAX_LISTED);
  return tasks.slice(0, MAX_LISTED).reverse(); // ListTasks is newest first; the Studio lists oldest first
}

/**
 * Resolves once the task is terminal or waits for input (what a blocking SendMessage waits for), or
 * after `ms`; rejects with `canceled` when the caller stops waiting (the task runs on).
 */
function settled(session: Session, taskId: string, ms: number, signal?: AbortSignal): Promise<void> {
  // The state alone: no task is copied, and none read from the records.
  const done = () => {
    const state = session.taskState(taskId);
    return !state || isTerminal(state) || INTERRUPTED_STATES.has(state);
  };
  if (done()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const finish = () => {
      off();
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    };
    const abort = () => {
      finish();
      reject(
        new CoreError('canceled', `task.send stopped waiting for ${taskId}; the task runs on (task.cancel ends it).`),
      );
    };
    const end = () => {
      finish();
      resolve();
    };
    const off = session.onTaskEvent((id) => {
      if (id === taskId && done()) end();
    });
    const timer = setTimeout(end, ms);
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
  });
}

export function taskHandlers(
  ctx: StudioContext,
): Pick<Handlers, 'task.send' | 'task.checkData' | 'task.get' | 'task.list' | 'task.cancel'> {
  return {
    async 'task.send'(args, call) {
      const session = ctx.sessions.session(args.capsuleId);
      checkBeforeSending(session, args);
      // Accepted (or refused) at once, like any SendMessage with returnImmediately; a blocking
      // send then waits here for the task's end (bounded, and abortable by its caller), and
      // answers the task as GetTask does.
      const { task } = await callDoorMethod<{ task: Task }>(session, 'SendMessage', {
        message: messageOf(args),
        configuration: { returnImmediately: true },
      });
      const wait = args.returnImmediately ? 0 : (args.timeoutMs ?? MAX_SEND_WAIT_MS);
      if (wait === 0 || isTerminal(task.status.state)) return task;
      await settled(session, task.id, wait, call?.signal);
      return callDoorMethod<Task>(session, 'GetTask', { id: task.id });
    },
    'task.checkData'({ capsuleId, data }) {
      const schema = ctx.sessions.session(capsuleId).manifest.accepts as Record<string, unknown> | undefined;
      return { contract: !!schema, problems: schema ? acceptsProblems(schema, data) : [] };
    },
    'task.get': ({ capsuleId, taskId, historyLength }) =>
      callDoorMethod(ctx.sessions.session(capsuleId), 'GetTask', {
        id: taskId,
        ...(historyLength !== undefined ? { historyLength } : {}),
      }),
    'task.list': ({ capsuleId }) => listTasks(ctx.sessions.session(capsuleId)),
    'task.cancel': ({ capsuleId, taskId }) => cancelTask(ctx.sessions.session(capsuleId), taskId),
  };
}
