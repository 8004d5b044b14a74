import { PEER_HEADER, type Message } from '../../../src-shared/a2a';
import { withHistory } from '../../runtime/tasks';
import { replyMessageOf } from '../../runtime/answer';
import type { MethodContext, MethodHandler } from '../methods';
import { DEFAULT_HISTORY_LENGTH, parseParams, sendMessageParams, type SendMessageParams } from '../params';
import { fastSendMessageParams } from '../params-fast';
import { attachInlinePushConfig, inlinePushConfig } from '../push';
import { checkAccepts } from '../accepts';

// SendMessage: blocking by default (answers once the task is terminal or interrupted);
// configuration.returnImmediately answers as soon as the task is accepted. A task answered as a
// message (a rehearsal turn's `answer_as: message`) gives a blocking caller that Message alone.

const header = (ctx: MethodContext, name: string): string | undefined => {
  const v = ctx.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** Validates SendMessage params and hands the message to the session (shared with streaming). */
export function acceptFromDoor(ctx: MethodContext, method: string) {
  // The common shape is checked by hand (params-fast.ts); anything else, and every error, by the schema.
  const params = fastSendMessageParams(ctx.params) ?? (parseParams(sendMessageParams, ctx.params) as SendMessageParams);
  checkAccepts(ctx.session.manifest.accepts, params.message); // -32602 naming the field, before any task exists
  const push = inlinePushConfig(ctx.session, ctx.params); // a bad inline push config starts nothing
  const accepted = ctx.session.acceptMessage({
    message: params.message as Message,
    method,
    peer: header(ctx, PEER_HEADER),
    traceparent: header(ctx, 'traceparent'),
  });
  if (push) attachInlinePushConfig(ctx.session, push, accepted.task);
  return { params, accepted };
}

// Not async: a bad request throws at once, and a blocking call costs one continuation.
export const sendMessage: MethodHandler = (ctx) => {
  const { params, accepted } = acceptFromDoor(ctx, 'SendMessage');
  const config = params.configuration;
  if (config?.returnImmediately)
    return { task: withHistory(accepted.task, config.historyLength ?? DEFAULT_HISTORY_LENGTH) };
  // The answer says the task ended: its lines (task_end included) are in the file before it goes out.
  return accepted.settled.then(async (task) => {
    await ctx.session.trace.flush();
    const reply = replyMessageOf(task);
    if (reply) return { message: reply };
    return { task: withHistory(task, config?.historyLength ?? DEFAULT_HISTORY_LENGTH) };
  });
};
