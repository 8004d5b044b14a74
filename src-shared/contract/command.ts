import type { z } from 'zod';

// How one command of the contract is declared: its line of doc, its input schema (parsed at every
// shell boundary), where it runs, and its output type. Where it runs is part of the declaration,
// so adding a command without saying it does not compile; the core's routing reads `route`.

/**
 * - `here`: always this Studio's core, whatever the input names.
 * - `owner`: the runtime owning what the listed fields name (a capsule id `@<runtime>/<id>`, a
 *   session the runtime reported); this Studio's own when they name nothing of another runtime.
 * - `hereOnly`: this Studio's core, refused when a listed field names another runtime's capsule or
 *   session (the command is not carried to runtimes yet: its answer names things the relay does
 *   not rename).
 */
export interface CommandRoute {
  runs: 'here' | 'owner' | 'hereOnly';
  /** Input fields holding a capsule id. */
  capsules?: readonly string[];
  /** Input fields holding a session id, or a list of them. */
  sessions?: readonly string[];
  /** The input's optional `runtime` field names the host to run on (commands for a whole formation). */
  runtime?: true;
  /** The named capsules may stand on two hosts (an edge across runtimes): the core joins the halves. */
  across?: true;
}

/** Runs on this Studio's core. */
export const runsHere: CommandRoute = { runs: 'here' };
/** Runs where the capsule named by these input fields runs. */
export const runsWithCapsule = (...fields: string[]): CommandRoute => ({ runs: 'owner', capsules: fields });
/** Runs where the session named by these input fields runs. */
export const runsWithSession = (...fields: string[]): CommandRoute => ({ runs: 'owner', sessions: fields });
/** Runs on the runtime the optional `runtime` field names (this Studio's without it). */
export const runsOnRuntime: CommandRoute = { runs: 'owner', runtime: true };
/** Runs here; refused when these fields name another runtime's capsules or sessions. */
export const runsHereOnly = (fields: { capsules?: string[]; sessions?: string[] }): CommandRoute => ({
  runs: 'hereOnly',
  ...fields,
});

/** Declares a command: its output type is carried as a phantom so the map stays one object. */
export const command =
  <Out>() =>
  <In extends z.ZodType>(doc: string, input: In, route: CommandRoute) => ({
    doc,
    input,
    route,
    output: undefined as unknown as Out,
  });
