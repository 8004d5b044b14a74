import { command, runsHere, runsHereOnly } from './command';
import { z } from 'zod';

// Breakpoints on a running formation, held by the Studio's core (never written into manifests):
// a capsule pauses before each model turn, or an orchestrator before a delegation crosses an edge.
// A paused task waits with the message it is about to send until the user continues (with it
// edited or not), steps one turn, or cancels it; a pause nobody answers continues by itself after
// the timeout. Spread into `commands` in commands.ts.

const id = z.string().min(1).max(200);
const none = z.strictObject({}).optional();

/** The most breakpoints one workspace holds. */
export const MAX_BREAKPOINTS = 256;
/** The most paused tasks breakpoints.changed lists (each session also bounds its own by its queue). */
export const MAX_PAUSED_LISTED = 200;
/** A pause's timeout: 10 minutes unless set, between 5 seconds and an hour. */
export const PAUSE_TIMEOUT_SECONDS = { default: 600, min: 5, max: 3600 };
/** The longest edited message a resume takes (the door's own bound on a message is 1 MiB). */
export const MAX_EDITED_MESSAGE = 512 * 1024;

/** Where to pause: before each turn of a capsule, or before a delegation from one node to another. */
export const breakpointSpec = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('turn'), capsuleId: id }),
  // `to`: a capsule id, a remote id, or `external:<address>`, as the edge's target.
  z.strictObject({ kind: z.literal('edge'), from: id, to: id }),
]);
export type BreakpointSpec = z.infer<typeof breakpointSpec>;

/** A breakpoint as the Studio lists it; `id` is `turn:<capsule>` or `edge:<from>→<to>`. */
export type BreakpointView = BreakpointSpec & { id: string };

/** A task waiting at a breakpoint, with what it is about to send. */
export interface PausedTask {
  sessionId: string;
  capsuleId: string;
  taskId: string;
  point: 'turn' | 'edge';
  /** The turn it pauses before (point `turn`). */
  turn?: number;
  /** What the delegation was addressed to, and the edge's target id when the Studio knows it (point `edge`). */
  to?: string;
  target?: string;
  /** The message (masked like every trace line); cut to 16 KiB when longer, and then not editable. */
  text: string;
  editable: boolean;
  /** When the pause began (the trace line's ts) and how long it waits before it continues by itself. */
  since: string;
  timeoutMs: number;
}

export interface BreakpointsView {
  breakpoints: BreakpointView[];
  paused: PausedTask[];
  timeoutSeconds: number;
}

export { breakpointId } from './breakpoint-id';

export const breakpointsCommands = {
  'breakpoints.set': command<BreakpointsView>()(
    `Sets a breakpoint in the open workspace: before each turn of a capsule ({kind:"turn", capsuleId}) or before a delegation crosses an edge ({kind:"edge", from, to}); running sessions pause there from their next turn or delegation. At most ${MAX_BREAKPOINTS}.`,
    breakpointSpec,
    runsHereOnly({ capsules: ['capsuleId', 'from', 'to'] }),
  ),
  'breakpoints.clear': command<BreakpointsView>()(
    'Clears one breakpoint, or every one of the open workspace (`all: true`). Tasks paused already stay paused until resumed or timed out.',
    z.union([breakpointSpec, z.strictObject({ all: z.literal(true) })]),
    runsHereOnly({ capsules: ['capsuleId', 'from', 'to'] }),
  ),
  'breakpoints.list': command<BreakpointsView>()(
    'The breakpoints of the open workspace, the tasks paused at them, and the pause timeout.',
    none,
    runsHere,
  ),
  'breakpoints.configure': command<BreakpointsView>()(
    `How long a pause waits before it continues by itself (seconds, ${PAUSE_TIMEOUT_SECONDS.min}–${PAUSE_TIMEOUT_SECONDS.max}; ${PAUSE_TIMEOUT_SECONDS.default} by default). Applies to pauses that begin from now on.`,
    z.strictObject({ timeoutSeconds: z.number().int().min(PAUSE_TIMEOUT_SECONDS.min).max(PAUSE_TIMEOUT_SECONDS.max) }),
    runsHere,
  ),
  'breakpoints.resume': command<BreakpointsView>()(
    'Resumes a paused task: "continue", "step" (run one turn, then pause before the next), or "cancel" (CancelTask through its door, residue and all). `message` replaces what it was about to send.',
    z.strictObject({
      sessionId: z.string().regex(/^ses_[0-9a-f]{32}$/, 'a session id (ses_ and 32 hex digits)'),
      taskId: id,
      action: z.enum(['continue', 'step', 'cancel']),
      message: z.string().min(1).max(MAX_EDITED_MESSAGE).optional(),
    }),
    runsHereOnly({ sessions: ['sessionId'] }),
  ),
} as const;
