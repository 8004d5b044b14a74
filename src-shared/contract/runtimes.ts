import { command, runsHere } from './command';
import { z } from 'zod';

// Runtimes on other hosts (`capsule serve --studio` there) attached to this Studio. The core holds
// one WebSocket to each, with its token kept in the core (never in an answer or an event), and
// shows their capsules in the one formation the canvas draws: a remote runtime's capsule `writer`
// is the capsule `@<runtime>/writer` here, carries `runtime`, and every command naming it goes to
// that runtime. Session ids are unique everywhere and stay as they are. Commands that name no
// capsule (Launch all, Stop all, the sessions browser, the exposures, the gateway's settings) take `runtime` to mean that host (so does capsule.add: a node dropped in a runtime's frame).
// Spread into `commands` in commands.ts.

const none = z.strictObject({}).optional();

/** A runtime's id: short, URL- and id-safe (it prefixes the ids of its capsules). */
export const RUNTIME_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const runtimeId = z.string().regex(RUNTIME_ID, 'a runtime id (lowercase letters, digits, -)');
/** The longest token accepted (the serve's tokens are far shorter). */
export const RUNTIME_TOKEN_MAX = 512;
/** At most this many runtimes attached at once (each is a socket and a formation held in memory). */
export const MAX_RUNTIMES = 16;

/** How the link to one runtime stands. */
export type RuntimeLinkState = 'connecting' | 'connected' | 'lost' | 'refused';

export interface RuntimeView {
  id: string;
  label: string;
  /** The serve's Studio URL as attached (http or https; never the token). */
  url: string;
  state: RuntimeLinkState;
  /** While lost: seconds until the next try. */
  retryInS?: number;
  /** Why it is lost or refused, in words (`refused 401: the token was not accepted`). */
  message?: string;
  /** When connected or last known: how many capsules it runs in its formation. */
  capsules: number;
  /** The runtime's workspace folder on its host. */
  dir?: string;
}

/** A capsule id as this Studio names a runtime's capsule. */
export const runtimeCapsuleId = (runtime: string, id: string) => `@${runtime}/${id}`;

/** The runtime and its own id for a namespaced id, or undefined for a local one. */
export function splitRuntimeId(id: string): { runtime: string; id: string } | undefined {
  const m = /^@([a-z0-9][a-z0-9-]{0,31})\/(.+)$/.exec(id);
  return m ? { runtime: m[1], id: m[2] } : undefined;
}

const httpUrl = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'an http or https URL (the serve prints it as "studio: URL")');

export const runtimesCommands = {
  'runtimes.list': command<RuntimeView[]>()(
    'The runtimes attached to this Studio and how each link stands.',
    none,
    runsHere,
  ),
  'runtimes.attach': command<RuntimeView>()(
    'Attaches a runtime on another host by its Studio URL and token (`capsule serve --studio` prints both); remembered across restarts (URL and label in settings, the token in the secret store). A wrong token answers 401 and the runtime shows refused.',
    z.strictObject({
      url: httpUrl,
      token: z.string().min(1).max(RUNTIME_TOKEN_MAX),
      label: z.string().trim().min(1).max(60).optional(),
    }),
    runsHere,
  ),
  'runtimes.detach': command<void>()(
    'Detaches a runtime: its capsules leave the canvas (they keep running on their host) and its token is forgotten.',
    z.strictObject({ id: runtimeId }),
    runsHere,
  ),
} as const;

export interface RuntimesEventMap {
  /** The attached runtimes changed (attached, detached, a link came up, was lost or refused). */
  'runtimes.changed': { runtimes: RuntimeView[] };
}
