import type { FastifyInstance } from 'fastify';
import type { Manifest } from '../../src-shared/manifest';
import type { Message, StreamResponse, Task, TaskPushNotificationConfig, TaskState } from '../../src-shared/a2a';
import type { TraceWriter } from '../trace';
import type { ForkPlan } from '../drivers';
import type { ResidueItem, Tool } from './tool-types';
import type { FormationResolver } from './tools/formation';
import type { ResumeAction, SessionBreakpoints } from './pause';

// The public shape of a running capsule session. The door, the CLI, the Studio core, streaming,
// push and the gateway all use a session through this interface only.

export interface SessionOptions {
  /** The manifest file (used for errors, records and the agent card). */
  manifestPath: string;
  /** An already validated manifest; when absent it is loaded from manifestPath. */
  manifest?: Manifest;
  /** Environment for ${VAR} interpolation (defaults to process.env). */
  env?: Record<string, string | undefined>;
  /** Root of the records folders; the session writes `<recordsRoot>/<session id>/trace.jsonl`. */
  recordsRoot?: string;
  /** Overrides network.internal_port; 0 lets the OS pick. */
  port?: number;
  /** Interface the door binds; 127.0.0.1 unless the capsule is exposed. */
  host?: string;
  /** Set when this session is a sub-capsule started by a delegation. */
  parent?: { sessionId: string; workdir: string; name: string };
  /** Secrets to mask in the trace besides the interpolated ones. */
  secrets?: string[];
  /** Resume a recorded session: same id and records folder; its finished tasks stay answerable. */
  resume?: { sessionId: string; workdir: string };
  /** Extra tools offered to the model (delegate_task, shell, … come from runtime/tools). */
  tools?: Tool[];
  /** The formation this capsule belongs to: how delegate_task reaches a capsule by name. */
  formation?: FormationResolver;
  /**
   * True when this process hosts this one session and nothing else (`capsule run`). Only then
   * may `capsule stop` signal the process, if the session's own end does not come.
   */
  ownsProcess?: boolean;
  /** A fork of a recorded task: its first turns replay the recording, then the driver answers. */
  fork?: ForkPlan;
}

/**
 * Builds the server that serves a session to its callers (the A2A door). The runtime listens on
 * it once the session exists and closes it when the session ends; the launcher supplies it.
 */
export type SessionDoorFactory = (session: Session) => FastifyInstance;

export type SessionState = 'starting' | 'idle' | 'busy' | 'stopping' | 'ended';

export interface SessionStatus {
  state: SessionState;
  /** The task the session works on: the one running, else one paused at a breakpoint (busy either way). */
  running: string | null;
  queued: number;
  tasks: number;
  tokensIn: number;
  tokensOut: number;
}

/** A message arriving at the door, with what the trace records about who sent it. */
export interface IncomingMessage {
  message: Message;
  /** The door method that carried it (a2a_task_received.method). */
  method?: string;
  /** Value of the peer header, when a capsule sent it. */
  peer?: string;
  traceparent?: string;
}

export interface AcceptedMessage {
  /** The task right after acceptance (SUBMITTED, REJECTED, or the resumed task). */
  task: Task;
  /** Resolves with the task once it is terminal or interrupted again (blocking SendMessage). */
  settled: Promise<Task>;
  /** The task is known to be answered with a Message (a rehearsal script's answer_as: message). */
  asMessage?: boolean;
}

/** The part of a manifest a running session can change: capabilities.network.allow and exports.peer_tasks.accept. */
export interface SessionPolicy {
  allow: string[];
  acceptPeerTasks: boolean;
}

/** Answer of murmur.StopSession. */
export interface StopSessionResult {
  session_id: string;
  canceled: string[];
  residue: ResidueItem[];
}

export interface Session {
  readonly id: string;
  readonly url: string;
  readonly port: number;
  readonly manifest: Manifest;
  readonly manifestPath: string;
  /** The records folder of this session. */
  readonly workdir: string;
  readonly trace: TraceWriter;
  readonly startedAt: number;
  status(): SessionStatus;
  /**
   * A task memory holds, as the door would answer GetTask (historyLength applied): a live one, or
   * one of the newest finished ones; undefined for any other, readTask has those. Reads no file.
   */
  peekTask(id: string, historyLength?: number): Task | undefined;
  /** A task's state, whatever its age (undefined: no such task). Reads no file. */
  taskState(id: string): TaskState | undefined;
  /**
   * Any task, as the door's GetTask answers it: one no longer kept in memory is read from
   * trace.jsonl off the main thread, once the lines still waiting in the writer are in it.
   * `payload: false` asks for its status only (no history or artifacts needed).
   */
  readTask(id: string, historyLength?: number, payload?: boolean): Promise<Task | undefined>;
  /**
   * Every task, oldest first, from memory: the older ones (past the newest 256) with their status
   * only, without a status text too long to keep; readTask has the rest.
   */
  listTasks(): Task[];
  /**
   * Takes an incoming message (SendMessage, SendStreamingMessage): creates a task (or resumes the
   * INPUT_REQUIRED task it names). Throws A2AError for a message that cannot be taken. The task
   * starts after this returns, so a listener added right after sees every later event.
   */
  acceptMessage(incoming: IncomingMessage): AcceptedMessage;
  /** Every status/artifact change of every task, in order (for streaming, push, live views). */
  onTaskEvent(listener: (taskId: string, event: StreamResponse) => void): () => void;
  /** Push configs hang off the session so they live as long as its tasks. */
  pushConfigs?: Map<string, TaskPushNotificationConfig[]>;
  /**
   * Cancels one task: the task as it ended (CANCELED) and what it left behind (the items of its
   * `residue` artifact). Throws the door's A2AError for an unknown task (-32001) or one that had
   * ended (-32002, with its state).
   */
  cancelTask(id: string, by?: string): Promise<{ task: Task; residue: ResidueItem[] }>;
  /** Whether the session's door serves a method (exports.methods narrows the A2A ones). */
  serves(method: string): boolean;
  /** murmur.StopSession: cancels everything, reports residue, ends nothing. */
  stopSession(): Promise<StopSessionResult>;
  /**
   * Changes the session's network policy while it runs: the next connection its tools make reads
   * `allow`, the next task arriving from another capsule reads `acceptPeerTasks`. Work in flight
   * keeps what it started with. Everything else in a manifest needs a restart.
   */
  updatePolicy(policy: SessionPolicy): void;
  /** What the session pauses at from now on (breakpoints.ts); tasks paused already stay paused. */
  setBreakpoints(breakpoints: SessionBreakpoints | undefined): void;
  /**
   * Resumes a task paused at a breakpoint: `continue`, or `step` (pause again before its next
   * turn), with the message it was about to send replaced by `text` when given. Throws
   * BreakpointError when the task is not paused or its message cannot be edited. A paused task is
   * canceled like any other (cancelTask).
   */
  resumeBreakpoint(taskId: string, action: ResumeAction, text?: string): void;
  /** Ends the session: StopSession, close the door, session_end, kill residue. */
  end(reason?: string): Promise<void>;
  /** Resolves with the reason once the session has ended (stop, after_task exit, idle timeout). */
  readonly ended: Promise<string>;
}

/** Where records live unless told otherwise: $CAPSULE_HOME/records, CAPSULE_HOME=~/.capsule. */
export interface RecordsLayout {
  home: string;
  records: string;
  /** One JSON file per running session (pid, url, name), read by `capsule ps` and `@1`. */
  running: string;
}
