// What one session's trace says each task did, in the shape a rehearsal needs: the text it was
// given, every model turn (text, tool calls, tokens, time) with the tool results that followed,
// the delegations it made, and how it ended. Pure: trace lines in, records out.

import type { RehearsalPart } from '../../src-shared/manifest';

type Line = Record<string, any>;

export interface RecordedToolCall {
  id: string;
  name: string;
  /** As the call went out: a delegation's text edited at a breakpoint is the edited one. */
  arguments: Record<string, unknown>;
  /** The text the model wrote, when a breakpoint edited it before it was sent. */
  modelText?: string;
}

export interface RecordedTurn {
  turn: number;
  text: string;
  toolCalls: RecordedToolCall[];
  tokensIn: number;
  tokensOut: number;
  stop: string;
  durationMs: number;
  /** Results of this turn's tool calls, in call order (what the next turn followed). */
  results: string[];
}

/** An MCP tool call and what the server answered (tool_call and tool_result lines naming an mcp_server). */
export interface RecordedMcpCall {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  ok: boolean;
  result: string;
  /** The result's images, audio and files, when its line kept them. */
  parts?: RehearsalPart[];
}

export interface RecordedDelegation {
  to: string;
  capsule: string;
  childSessionId: string;
  traceparent: string;
}

export interface RecordedTask {
  taskId: string;
  contextId: string;
  /** The id of the message that created the task. */
  messageId?: string;
  text: string;
  traceparent?: string;
  turns: RecordedTurn[];
  delegations: RecordedDelegation[];
  /** The MCP tool calls the task made, in the order they were answered. */
  mcpCalls: RecordedMcpCall[];
  exitStatus?: string;
  answer?: string;
  /** task_failed: why (an inference error becomes a scripted error turn). */
  failure?: { cause: string; message: string };
  /** task_canceled while waiting on inference turn N: the replay hangs there until canceled. */
  canceledAtTurn?: number;
  /** A replay's rehearsal_diverged lines: where it left its recording. */
  divergences: { turn: number; reason: string }[];
}

export interface RecordedSession {
  sessionId: string;
  capsule: string;
  version: string;
  model: string;
  driver: string;
  manifestPath?: string;
  workdir?: string;
  parentSessionId?: string;
  /** A fork's origin (session_start.forked_from). */
  forkedFrom?: { sessionId: string; taskId: string; turn: number; messageId?: string };
  tasks: RecordedTask[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Reads a session's trace lines into its tasks, in the order they arrived. */
export function recordedSession(lines: readonly Line[]): RecordedSession {
  const reader = sessionReader();
  for (const l of lines) reader.push(l);
  return reader.session();
}

/** The session with its tasks, its header from its session_start line (its first line's session id when that has none). */
function sessionOf(start: Line, first: Line | undefined, tasks: RecordedTask[]): RecordedSession {
  const session: RecordedSession = {
    sessionId: str(start.session_id) || str(first?.session_id),
    capsule: str(start.capsule),
    version: str(start.version),
    model: str(start.model),
    driver: str(start.driver),
    manifestPath: str(start.manifest_path) || undefined,
    workdir: str(start.workdir) || undefined,
    parentSessionId: str(start.parent_session_id) || undefined,
    tasks,
  };
  const fork = start.forked_from;
  if (fork && typeof fork === 'object' && str(fork.session_id))
    session.forkedFrom = {
      sessionId: str(fork.session_id),
      taskId: str(fork.task_id),
      turn: Number(fork.turn) || 1,
      ...(str(fork.message_id) ? { messageId: str(fork.message_id) } : {}),
    };
  return session;
}

/**
 * recordedSession a line at a time, for a trace read in pieces (the Studio's main thread folds
 * each piece as it arrives instead of the whole file at once): push every line in file order.
 */
export function sessionReader(): { push(l: Line): void; session(): RecordedSession } {
  let first: Line | undefined;
  let start: Line | undefined;
  const tasks: RecordedTask[] = [];
  const byId = new Map<string, RecordedTask>();
  const callsById = new Map<string, { task: RecordedTask; turn: RecordedTurn; index: number }>();
  // task/call id -> the arguments of an MCP tool call, until its result line comes.
  const mcpCalls = new Map<string, Record<string, unknown>>();
  const push = (l: Line) => {
    first ??= l;
    if (!start && l.event_type === 'session_start') start = l;
    const id = str(l.task_id);
    if (!id) return;
    let t = byId.get(id);
    if (l.event_type === 'a2a_task_received') {
      // A second one is the answer to a request_input wait: it reaches the model as a tool result.
      if (t) return;
      t = {
        taskId: id,
        contextId: str(l.context_id),
        ...(l.message_id ? { messageId: str(l.message_id) } : {}),
        text: str(l.text),
        ...(l.traceparent ? { traceparent: str(l.traceparent) } : {}),
        turns: [],
        delegations: [],
        mcpCalls: [],
        divergences: [],
      };
      byId.set(id, t);
      tasks.push(t);
      return;
    }
    if (!t) return;
    switch (l.event_type) {
      case 'inference': {
        const turn: RecordedTurn = {
          turn: Number(l.turn) || t.turns.length + 1,
          text: str(l.text),
          toolCalls: (Array.isArray(l.tool_calls) ? l.tool_calls : []).map((c: Line) => ({
            id: str(c.id),
            name: str(c.name),
            arguments: (c.arguments && typeof c.arguments === 'object' ? c.arguments : {}) as Record<string, unknown>,
          })),
          tokensIn: Number(l.tokens_in) || 0,
          tokensOut: Number(l.tokens_out) || 0,
          stop: str(l.stop_reason),
          durationMs: Number(l.duration_ms) || 0,
          results: [],
        };
        turn.toolCalls.forEach((c, index) => callsById.set(`${id}/${c.id}`, { task: t!, turn, index }));
        t.turns.push(turn);
        break;
      }
      case 'tool_call':
        if (str(l.mcp_server) && str(l.mcp_tool))
          mcpCalls.set(`${id}/${str(l.call_id)}`, l.arguments && typeof l.arguments === 'object' ? l.arguments : {});
        break;
      case 'tool_result': {
        const key = `${id}/${str(l.call_id)}`;
        const at = callsById.get(key);
        if (at) at.turn.results[at.index] = str(l.result);
        const args = mcpCalls.get(key);
        if (args) {
          const parts = Array.isArray(l.result_parts) ? (l.result_parts as RehearsalPart[]) : undefined;
          t.mcpCalls.push({
            server: str(l.mcp_server),
            tool: str(l.mcp_tool),
            arguments: args,
            ok: l.ok !== false,
            result: str(l.result),
            ...(parts ? { parts } : {}),
          });
        }
        break;
      }
      case 'breakpoint_resumed': {
        // An edited delegation: what the worker got is what the run did, so a replay, a saved
        // test and a fork send it (the model's own words stay beside it).
        const at =
          l.edited === true && typeof l.text === 'string' ? callsById.get(`${id}/${str(l.call_id)}`) : undefined;
        const call = at?.turn.toolCalls[at.index];
        if (call?.name === 'delegate_task') {
          call.modelText ??= str(call.arguments.text);
          call.arguments = { ...call.arguments, text: l.text };
        }
        break;
      }
      case 'delegation_start':
        t.delegations.push({
          to: str(l.to),
          capsule: str(l.capsule),
          childSessionId: str(l.child_session_id),
          traceparent: str(l.traceparent),
        });
        break;
      case 'rehearsal_diverged':
        t.divergences.push({ turn: Number(l.turn) || 0, reason: str(l.reason) });
        break;
      case 'task_failed':
        t.failure = { cause: str(l.cause), message: str(l.message) };
        break;
      case 'task_canceled': {
        const m = /^inference turn (\d+)$/.exec(str(l.interrupted));
        if (m) t.canceledAtTurn = Number(m[1]);
        break;
      }
      case 'task_end':
        t.exitStatus = str(l.exit_status);
        if (typeof l.answer === 'string') t.answer = l.answer;
        break;
    }
  };
  return {
    push,
    session: () => sessionOf(start ?? {}, first, tasks),
  };
}
