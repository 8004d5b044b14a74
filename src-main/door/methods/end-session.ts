import { PEER_HEADER, unsupportedOperation } from '../../../src-shared/a2a';
import { httpOf, type MethodHandler } from '../methods';

// murmur.EndSession: the session-level end. It cancels every task (as murmur.StopSession does),
// answers with what was canceled and left behind, and once that answer has left, ends the session
// itself: session_end in the trace, the door closed, the running record removed. Whatever hosts
// the session (`capsule run`, `capsule serve`, the Studio) keeps running its other sessions;
// `capsule stop` uses this so that it never has to signal a process that hosts more than one.
// Outside callers never reach it: the gateway forwards no murmur.* method.

export const endSession: MethodHandler = async (ctx) => {
  // A capsule asks on a model's behalf; ending another capsule's session is not a task it may give.
  if (ctx.headers[PEER_HEADER] !== undefined)
    throw unsupportedOperation('murmur.EndSession is for the person running the session, not for other capsules');
  const { reply } = httpOf(ctx, 'murmur.EndSession');
  const answer = await ctx.session.stopSession();
  const end = () => void ctx.session.end('stopped');
  // 'finish' once the answer is written; 'close' also covers a caller that went away first.
  reply.raw.once('finish', end);
  reply.raw.once('close', end);
  return answer;
};
