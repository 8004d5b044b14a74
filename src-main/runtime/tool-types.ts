import type { ToolSpec } from '../drivers/types';
import type { TraceEvent } from '../../src-shared/trace';
import type { ResidueItem } from '../../src-shared/residue';
import type { PauseOutcome, PausePoint } from './pause';

// Tools the agent loop offers the model (delegate_task, shell, request_input, …). A tool that
// leaves something running when its task is canceled reports it as residue.

/** Something a canceled task leaves behind, as CancelTask's `residue` artifact names it. */
export type { ResidueItem };

export interface ToolContext {
  sessionId: string;
  taskId: string;
  contextId: string;
  /** The id of the tool call being run (the call_id of its tool_call and tool_result lines). */
  callId?: string;
  /** The traceparent the task arrived with: a delegation keeps its trace id. */
  traceparent?: string;
  /** Aborted when the task is canceled. */
  signal: AbortSignal;
  /** Appends to the session trace (session_id, task_id and ts are filled in). */
  trace(event: { event_type: string } & Record<string, unknown>): void;
  /** Adds fields to this call's tool_result trace line (a delegation names the peer task it made). */
  traceResult?(fields: Record<string, unknown>): void;
  /** Registers work in flight; the returned function unregisters it when the work ends. */
  track(work: InFlightWork): () => void;
  /** Pauses before a delegation when a breakpoint is set on its edge (TaskRun.pauseAt). */
  pauseAt?(point: PausePoint): Promise<PauseOutcome> | undefined;
}

/** Work a tool has in flight that a cancel must end (or report as residue). */
export interface InFlightWork {
  describe(): string;
  /** Ends the work on cancel; returns residue left running, if any. */
  cancel(): Promise<ResidueItem | undefined>;
  /** Read after cancel(): the canceled task's status text, when the work has something to say (a harness that had to be killed). */
  // RUNTIME HELPER: the cancel (session-tasks.ts) should set the CANCELED status with statusMessage(…, note) when a
  // work returns one (docs/door.md: "task canceled; the harness was killed and its session may not
  // resume cleanly"); drivers/process/session.test.ts has the skipped test for it.
  canceledStatus?(): string | undefined;
}

export type ToolOutcome =
  /**
   * `artifact`: structured output of the tool (a worker's data answer) the task passes on.
   * `parts`: images, audio or files of the result (an MCP tool's), which a driver may show the model.
   */
  | {
      ok: true;
      content: string;
      artifact?: import('../../src-shared/a2a').Artifact;
      parts?: import('../../src-shared/a2a').Part[];
    }
  | { ok: false; error: string }
  /** Puts the task in TASK_STATE_INPUT_REQUIRED with this question. */
  | { inputRequired: string };

export interface Tool {
  spec: ToolSpec;
  /** Fields every tool_call and tool_result line of this tool carries (an MCP tool names its server and tool). */
  traceFields?: Record<string, string>;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
  /** A call hands work to another agent (delegate_task): a task whose every such call failed says so (delegations.ts). */
  delegates?: boolean;
  /**
   * One call that stands for several (delegate_task `to: "*"`): the argument sets of the calls it
   * becomes, each then traced, run and answered on its own. Undefined or empty: run it as it is.
   */
  expand?(args: Record<string, unknown>): Record<string, unknown>[] | undefined;
}

export type { TraceEvent };
