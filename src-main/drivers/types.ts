import type { DriverKind } from '../../src-shared/manifest';
import type { Artifact, Message, Part } from '../../src-shared/a2a';

// The one interface between the agent loop (runtime/) and a model. A driver runs one turn; the
// loop owns turns, tools, limits and failure rules (docs/door.md, task states and failure rules).

/** A tool call the model asked for. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One message of the conversation the loop keeps per context. */
export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  /** `parts`: images, audio or files of the result (base64 `raw` with a media type, or a `url`), beside its text. */
  | { role: 'tool'; toolCallId: string; name: string; content: string; parts?: Part[]; isError?: boolean };

/** A tool as the model sees it (JSON Schema parameters). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Streamed output of a turn, as it arrives. */
export type TurnFrame = { kind: 'text'; text: string } | { kind: 'tool_call'; call: ToolCall };

export interface TurnRequest {
  system?: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  maxTokens?: number;
  turn: number;
  /** The text of the task being worked on (the rehearsal driver matches its script on it). */
  taskText?: string;
  /** The message that created the task (the rehearsal driver also matches its id and metadata). */
  taskMessage?: Pick<Message, 'messageId' | 'metadata'>;
  /**
   * JSON Schema the final answer must match (manifest `responds`). A driver with a structured-output
   * mode (`structuredOutput: 'native'`) asks the provider for it; the loop checks the answer either way.
   */
  responseSchema?: Record<string, unknown>;
  /** An artifact the turn produced while it works (a TaskArtifactUpdateEvent on streams). */
  onArtifact?: (chunk: ArtifactChunk) => void;
  /** Aborted on cancel: the driver drops its in-flight request at once. */
  signal: AbortSignal;
  /**
   * The task was canceled, read without making `signal` (the runtime makes it when first asked
   * for); left out, read `signal.aborted`.
   */
  readonly aborted?: boolean;
  onFrame?: (frame: TurnFrame) => void;
  /** Called before each retry (429/5xx/reset), so the trace shows it. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /** A rehearsal made from a recording met input the recording did not have (traced as rehearsal_diverged). */
  onDivergence?: (info: { reason: string }) => void;
}

export type StopReason = 'end_turn' | 'max_tokens' | 'tool_use';

/** One artifact, or one more chunk of it (append), as the turn produced it. */
export interface ArtifactChunk {
  artifact: Artifact;
  append?: boolean;
  /** false when more chunks of this artifact follow. */
  lastChunk?: boolean;
}

export interface TurnResult {
  text: string;
  /** A structured answer given as such (the rehearsal script's `data`), instead of JSON in `text`. */
  data?: unknown;
  /** `message`: the caller of a blocking SendMessage gets a Message, not the Task. */
  answerAs?: 'task' | 'message';
  /** More parts for the answer (files, data) beside its text. */
  parts?: Part[];
  /**
   * The text only reports that the work could not be done (a rehearsal script's `failed_text`): a
   * task whose delegations all failed then fails with it rather than completing.
   */
  reportsFailure?: boolean;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  tokensIn: number;
  tokensOut: number;
}

export interface Driver {
  readonly kind: DriverKind;
  readonly model: string;
  /**
   * How the driver honours TurnRequest.responseSchema: `native` sends it to the provider's
   * structured-output mode; `none` (the default) leaves it to the loop, which offers a tool.
   */
  readonly structuredOutput?: 'native' | 'none';
  /**
   * Everything a turn does stays inside the promise turn() returns: no socket, SDK callback or
   * child process that could throw on its own. Its turns then run outside the task's last-resort
   * scope (a scope costs every promise of the process a hook call while it is open).
   */
  readonly contained?: boolean;
  turn(req: TurnRequest): Promise<TurnResult>;
  /**
   * Whether the task will be answered with a Message, known before it runs (a rehearsal script
   * says so; a model cannot): a stream can then carry that Message alone instead of the Task.
   */
  answersAsMessage?(taskText: string, taskMessage: Pick<Message, 'messageId' | 'metadata'>): boolean;
  dispose?(): void;
}

/** An inference call that failed for good (after retries). The message never carries a key. */
export class InferenceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Thrown by a driver whose signal was aborted. */
export class AbortedError extends Error {
  constructor() {
    super('aborted');
  }
}
