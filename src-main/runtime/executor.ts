import type { Manifest } from '../../src-shared/manifest';
import type { Message, Part } from '../../src-shared/a2a';
import type { ArtifactChunk, ChatMessage } from '../drivers/types';
import type { ForkPlan, PriceFn } from '../drivers';
import type { InFlightWork, Tool } from './tool-types';
import type { PauseOutcome, PausePoint } from './pause';

// A task executor runs one task to an outcome. The agent loop (loop.ts) is the executor of the
// http and embedded transports; the process transport brings its own (a harness CLI with its own
// loop). The runtime owns states, cancel, queue and trace framing; the executor owns the work.

/** Counters the executor keeps up to date while it runs (read by task_end, also on cancel). */
export interface TaskUsage {
  turns: number;
  tokensIn: number;
  tokensOut: number;
}

/** The task an executor runs. Call its functions as methods (task.trace(…)), never detached. */
export interface TaskRun {
  sessionId: string;
  taskId: string;
  contextId: string;
  /** The text of the message that created the task. */
  text: string;
  /** The traceparent the task arrived with, if any (a hop further down a formation). */
  readonly traceparent?: string;
  message: Message;
  /** The conversation of this context, shared by its tasks; the executor appends to it. */
  conversation: ChatMessage[];
  /** Aborted when the task is canceled: stop at once, results are ignored afterwards. */
  signal: AbortSignal;
  /** The task was canceled (what `signal.aborted` says, without making the signal). */
  readonly aborted: boolean;
  usage: TaskUsage;
  trace(event: { event_type: string } & Record<string, unknown>): void;
  /** Registers work in flight that a cancel must end; returns its unregister function. */
  track(work: InFlightWork): () => void;
  /** What the task is waiting on now (inference, tools, input), named by task_canceled. */
  setWaiting(what: string): void;
  /** Puts the task in INPUT_REQUIRED; resolves with the reply, rejects InputTimeoutError. */
  requestInput(question: string): Promise<string>;
  /**
   * Pauses here when a breakpoint (or a step) asks for it: resolves with the message to send (the
   * user may have edited it) once resumed, rejects when the task is canceled meanwhile. Undefined
   * when nothing pauses here.
   */
  pauseAt?(point: PausePoint): Promise<PauseOutcome> | undefined;
  /** Adds an artifact (or a chunk of one) to the task while it works: an artifact update on streams. */
  addArtifact?(chunk: ArtifactChunk): void;
  /**
   * Runs work that can throw out of band (a provider's SDK, a tool, a child process) in the task's
   * last-resort scope: an error nobody catches in it, or in anything it starts, fails this task.
   */
  guard<T>(work: () => T): T;
}

export type TaskOutcome =
  | {
      ok: true;
      /** The answer's text (for a structured answer, its text rendering). */
      answer: string;
      /** The structured answer (checked against `responds` when the manifest has one). */
      data?: unknown;
      /** `message`: a blocking SendMessage is answered with a Message rather than the Task. */
      answerAs?: 'task' | 'message';
      /** More parts of the answer (files, data). */
      parts?: Part[];
      /** What the caller must know beside the answer (every delegation failed): said in the final status message. */
      note?: string;
    }
  | { ok: false; cause: FailureCause; message: string };

export type FailureCause =
  | 'delegations_failed'
  | 'inference_error'
  | 'input_timeout'
  | 'max_turns'
  | 'max_tokens'
  | 'budget'
  | 'executor_error'
  | 'invalid_response'
  | 'runtime_error';

export interface TaskExecutor {
  run(task: TaskRun): Promise<TaskOutcome>;
  /** Whether a task starting with this message will be answered as a Message (see Driver.answersAsMessage). */
  answersAsMessage?(message: Message, text: string): boolean;
  dispose?(): void | Promise<void>;
  /**
   * The executor runs its out-of-band work through TaskRun.guard; without this the whole run is
   * in the task's last-resort scope.
   */
  guardsItself?: boolean;
}

export interface ExecutorDeps {
  manifest: Manifest;
  env: Record<string, string | undefined>;
  secrets: readonly string[];
  /** Tools offered to the model, the built-in request_input included. */
  tools: Tool[];
  /** Tools known only while the session runs (MCP servers' tool lists), asked for before each turn. */
  moreTools?: (signal: AbortSignal) => Promise<Tool[]>;
  priceUsd?: PriceFn;
  /** This session forks a recorded task: its first turns replay the recording (drivers/fork.ts). */
  fork?: ForkPlan;
}

export type ExecutorFactory = (deps: ExecutorDeps) => TaskExecutor;

export class InputTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no input arrived within ${Math.round(timeoutMs / 1000)}s (inference.input_timeout)`);
  }
}
