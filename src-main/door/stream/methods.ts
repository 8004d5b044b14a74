import { FRAMES_EXTENSION_URI, isTerminal, taskNotFound, unsupportedOperation } from '../../../src-shared/a2a';
import { httpOf, REPLIED, type MethodContext, type MethodHandler } from '../methods';
import { acceptFromDoor } from '../methods/send';
import { replyMessageOf } from '../../runtime/answer';
import { parseParams, taskIdParams } from '../params';
import { wantsFrames } from './frames';
import { streamSettings, trackStream } from './live';
import { openSse, type SseOptions } from './sse';
import { capWithRealState, followTask } from './task-stream';
import { parseWatchParams, watchSession } from './watch';

// The door's streaming methods. Everything that can fail before the stream opens (bad params,
// unknown or finished task, a refused push config) is thrown first and leaves as a plain JSON-RPC
// error; only then is the reply taken over for SSE.

function open(ctx: MethodContext, options: Omit<SseOptions, 'keepaliveMs' | 'maxLifeMs'> = {}) {
  const { request, reply } = httpOf(ctx, 'a stream');
  reply.hijack();
  return openSse(request.raw, reply.raw, ctx.id, { ...streamSettings(ctx.session), ...options });
}

export const sendStreamingMessage: MethodHandler = (ctx) => {
  const { accepted } = acceptFromDoor(ctx, 'SendStreamingMessage');
  const taskId = accepted.task.id;
  if (accepted.asMessage) {
    // A task known to answer with a Message: the stream carries that Message alone, as the spec
    // allows (or the task as it ended, if it ended otherwise).
    const sse = open(ctx);
    trackStream(ctx.session, sse);
    void accepted.settled.then((task) => {
      const reply = replyMessageOf(task);
      sse.send(reply ? { message: reply } : { task });
      sse.close();
    });
    return REPLIED;
  }
  const frames = wantsFrames(ctx.headers['a2a-extensions']);
  const sse = open(ctx, {
    onCap: () => capWithRealState(ctx.session, taskId, sse)(),
    ...(frames ? { headers: { 'a2a-extensions': FRAMES_EXTENSION_URI } } : {}),
  });
  trackStream(ctx.session, sse, capWithRealState(ctx.session, taskId, sse));
  followTask(ctx.session, taskId, sse, { frames, accepted: accepted.task });
  return REPLIED;
};

export const subscribeToTask: MethodHandler = (ctx) => {
  const p = parseParams(taskIdParams, ctx.params);
  // The state alone, from memory: a task of any age is found, and only a live one is followed.
  const state = ctx.session.taskState(p.id);
  if (!state) throw taskNotFound(p.id);
  if (isTerminal(state)) {
    throw unsupportedOperation(`Task ${p.id} is already ${state}; read a finished task with GetTask`, {
      taskId: p.id,
      state,
    });
  }
  const sse = open(ctx, { onCap: () => capWithRealState(ctx.session, p.id, sse)() });
  trackStream(ctx.session, sse, capWithRealState(ctx.session, p.id, sse));
  followTask(ctx.session, p.id, sse, { untilTerminal: true });
  return REPLIED;
};

export const watchSessionMethod: MethodHandler = (ctx) => {
  const { from } = parseWatchParams(ctx.params);
  const sse = open(ctx);
  // A door closing while the file is still being read lets the replay finish first, so a watcher
  // gets what was written (and what came live meanwhile) before the stream ends.
  let replayed: Promise<void> = Promise.resolve();
  trackStream(ctx.session, sse, () => replayed);
  replayed = watchSession(ctx.session, sse, from);
  return REPLIED;
};
