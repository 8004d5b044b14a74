import type { InvokeOptions } from './calls';
import type { CommandInput, CommandName, CommandOutput } from './commands';
import type { ReplyEnvelope } from './errors';
import type { EventName, EventPayload } from './events';

/** What the renderer uses to talk to the core, whatever the shell (IPC or WebSocket). */
export interface CoreClient {
  /** Runs a command; resolves with its output or rejects with a CoreError from the reply envelope (`canceled` once `signal` aborts). */
  invoke<K extends CommandName>(cmd: K, input: CommandInput<K>, opts?: InvokeOptions): Promise<CommandOutput<K>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** Closes the connection (WebSocket) or drops the listeners (IPC). */
  dispose(): void;
}

/** The object the Electron preload exposes as `window.capsule` (only the contract, nothing else). */
export interface CapsuleBridge {
  /** `callId` (chosen by the page) names the call for `cancel`. */
  invoke(cmd: string, input: unknown, callId?: number): Promise<ReplyEnvelope>;
  /** The page stopped waiting for call `callId` (Esc): the core stops the command where it can. */
  cancel?(callId: number): void;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** IPC channel names used by the Electron shell. */
export const IPC_INVOKE_CHANNEL = 'capsule:invoke';
export const IPC_EVENT_CHANNEL = 'capsule:event';
export const IPC_CANCEL_CHANNEL = 'capsule:cancel';

/** Messages on the web shell's one WebSocket (what a client sends: WireRequest, calls.ts). */
export type WireMessage =
  ({ type: 'reply'; id: number } & ReplyEnvelope) | { type: 'event'; event: string; payload: unknown };

/** Path of the web shell's WebSocket. */
export const WS_PATH = '/ws';

/**
 * Where a web shell page asks, on its own origin, whether the Studio now runs at another address
 * (`{ url }`, answered by a later web shell on the page's old port; see shell/web/moved.ts).
 */
export const MOVED_PATH = '/studio-moved';
