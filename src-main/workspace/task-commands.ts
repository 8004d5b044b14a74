import type { Message, Part, Task } from '../../src-shared/a2a';
import { CoreError, type CancelAnswer, type CommandArgs, type DataProblem } from '../../src-shared/contract';
import { newMessageId } from '../../src-shared/ids';
import { acceptsProblems, door, DoorError } from '../door';
import type { StudioContext } from './context';
import type { Handlers } from './handlers';

// The Studio's task commands. The Studio reaches its own in-process sessions one way: through
// their doors, over loopback JSON-RPC, with the same door client the CLI uses, for every task
// command (send, get, list, cancel). Calling the session object directly would be cheaper (no
// HTTP, no JSON), but then the Studio would test a path no caller takes: through the door it meets
// exactly what an external A2A caller gets (the method table exports.methods narrows, the payload
// limits, the input contract, masked answers, the trace lines a request writes). The cost is a
// loopback round trip per user action, and task progress needs none: it arrives as task.updated.

/** A door's JSON-RPC error as the contract's error: task not found keeps its code, a bad field says which. */
export function asCoreError(err: unknown): unknown {
  if (!(err instanceof DoorError)) return err;
  if (err.kind !== 'rpc') return new CoreError('door_error', err.message);
  if (err.code === -32001) return new CoreError('not_found', err.message, { rpcCode: err.code });
  if (err.code === -32602) {
    const field = fieldOf(err.data);
    return new CoreError('invalid_input', err.message, { rpcCode: err.code, ...(field ? { field } : {}) });
  }
  if (err.code === -32601) return new CoreError('door_error', `${err.message}: this capsule's exports.methods leaves it out`, { rpcCode: err.code });
  return new CoreError('door_error', err.message, { rpcCode: err.code });
}

/** The field a BadRequest error detail names (params.message.parts[1].data.priority). */
function fieldOf(data: unknown): string | undefined {
  const bad = Array.isArray(data) ? data.find((d) => d && typeof d === 'object' && 'fieldViolations' in d) : undefined;
  const v = (bad as { fieldViolations?: { field?: unknown }[] } | undefined)?.fieldViolations?.[0]?.field;
  return typeof v === 'string' ? v : undefined;
}

export const viaDoor = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (err) {
    throw asCoreError(err);
  }
};

/** Text first, then the files, then the data part (the order `capsule send` uses). */
export function messageOf(args: CommandArgs<'task.send'>): Message {
  const parts: Part[] = [
    ...(args.text?.trim() ? [{ text: args.text }] : []),
    ...(args.files ?? []).map((f) => ({ raw: f.bytes, filename: f.name, mediaType: f.mediaType ?? 'application/octet-stream' })),
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

export function runningUrl(ctx: StudioContext, id: string): string {
  const c = ctx.workspace().capsule(id);
  return ctx.sessions.session(id, c.summary.name ?? id).url;
}

function contractOf(ctx: StudioContext, capsuleId: string): Record<string, unknown> | undefined {
  const c = ctx.workspace().capsule(capsuleId);
  return ctx.sessions.session(capsuleId, c.summary.name ?? capsuleId).manifest.accepts as Record<string, unknown> | undefined;
}

/** A data part that misses the contract is refused before it is sent, with every problem (the door names only the first). */
function checkBeforeSending(ctx: StudioContext, args: CommandArgs<'task.send'>): void {
  const schema = contractOf(ctx, args.capsuleId);
  if (!schema || args.taskId) return; // a reply continues its task; the contract is for what starts one
  const problems: DataProblem[] =
    args.data === undefined ? [{ field: '', message: 'this capsule takes a data part matching its input contract (accepts); none was sent' }] : acceptsProblems(schema, args.data);
  if (!problems.length) return;
  const first = problems[0];
  throw new CoreError('invalid_input', `data${first.field ? `.${first.field}` : ''}: ${first.message}`, { problems });
}

async function cancelTask(url: string, id: string): Promise<CancelAnswer> {
  try {
    return await door.cancelTask(url, id);
  } catch (err) {
    if (!(err instanceof DoorError) || err.kind !== 'rpc') throw asCoreError(err);
    const state = err.metadata.state;
    return { residue: [], refused: { code: err.code!, message: err.message, ...(state ? { state: state as never } : {}) } };
  }
}

async function listTasks(url: string): Promise<Task[]> {
  const tasks: Task[] = [];
  let pageToken = '';
  do {
    const page = await viaDoor(() => door.listTaskPage(url, { pageSize: PAGE, includeArtifacts: true, ...(pageToken ? { pageToken } : {}) }));
    tasks.push(...page.tasks);
    pageToken = page.nextPageToken;
  } while (pageToken && tasks.length < MAX_LISTED);
  return tasks.slice(0, MAX_LISTED).reverse(); // ListTasks is newest first; the Studio lists oldest first
}

export function taskHandlers(ctx: StudioContext): Pick<Handlers, 'task.send' | 'task.checkData' | 'task.get' | 'task.list' | 'task.cancel'> {
  return {
    async 'task.send'(args) {
      const url = runningUrl(ctx, args.capsuleId);
      checkBeforeSending(ctx, args);
      const returnImmediately = args.returnImmediately ?? false;
      // A blocking send waits as long as the task runs; the Studio's caller can always cancel it.
      const result = await viaDoor(() => door.sendMessage(url, { message: messageOf(args), configuration: { returnImmediately } }, { timeoutMs: returnImmediately ? undefined : 0 }));
      if (!result.task) throw new CoreError('door_error', 'The door answered with a message instead of a task');
      return result.task;
    },
    'task.checkData'({ capsuleId, data }) {
      const schema = contractOf(ctx, capsuleId);
      return { contract: !!schema, problems: schema ? acceptsProblems(schema, data) : [] };
    },
    'task.get': ({ capsuleId, taskId, historyLength }) => viaDoor(() => door.getTask(runningUrl(ctx, capsuleId), taskId, historyLength)),
    'task.list': ({ capsuleId }) => listTasks(runningUrl(ctx, capsuleId)),
    'task.cancel': ({ capsuleId, taskId }) => cancelTask(runningUrl(ctx, capsuleId), taskId),
  };
}
