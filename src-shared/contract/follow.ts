import { command, runsHere } from './command';
import { z } from 'zod';

// Trace lines go only to the clients that follow a session: a live view follows its session while
// it is open and unfollows when it closes. Each client connection (the desktop window, each web
// socket) holds its own set; a connection that closes follows nothing. Spread into `commands` in
// commands.ts; the core answers them per connection (src-main/core.ts).

const sessionId = z.string().regex(/^ses_[0-9a-f]{32}$/, 'a session id (ses_ and 32 hex digits)');

/** How many sessions one client may follow at once; a follow beyond it is refused (`limit_reached`). */
export const MAX_FOLLOWED_SESSIONS = 64;

/** What trace.follow and trace.unfollow answer: how many sessions this client follows now. */
export interface FollowAnswer {
  following: number;
  max: number;
}

export const traceFollowCommands = {
  'trace.follow': command<FollowAnswer>()(
    `Sends this client the session's new trace lines (trace.appended) from now on; catch up on earlier ones with trace.tail. At most ${MAX_FOLLOWED_SESSIONS} sessions per client; following one already followed changes nothing.`,
    z.strictObject({ sessionId }),
    runsHere,
  ),
  'trace.unfollow': command<FollowAnswer>()(
    "Stops sending this client the session's trace lines (unfollowing one not followed changes nothing).",
    z.strictObject({ sessionId }),
    runsHere,
  ),
} as const;
