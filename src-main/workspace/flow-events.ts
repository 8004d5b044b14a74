import type { Session } from '../runtime';
import { createFlowTracker, type DelegationUpdate, type TaskProgress, type TraceEvent } from '../../src-shared/trace';
import type { EventMap, ToolCallView } from '../../src-shared/contract';

// The compact events every client gets about a running capsule, whether or not it follows the
// session's trace: its delegations (delegation.updated) and its tasks' turns and streamed text
// (task.progressed). Read from the trace as it is written, gathered for `flushMs` and sent as at
// most one event of each per session per interval, each call and task in its latest state only.

/** Sends one contract event to every client (the core's emitter; sessions.ts and the rest of the workspace share it). */
export type Emit = <E extends keyof EventMap>(event: E, payload: EventMap[E]) => void;

/** Bound on what one flush holds, whatever a burst wrote: past it the oldest entries are dropped. */
export const MAX_PER_FLUSH = 512;

export interface FlowBatcher {
  push(line: TraceEvent): void;
  /** Sends what has gathered (the session's end calls it once more). */
  flush(): void;
}

export function createFlowBatcher(sessionId: string, capsuleId: string, emit: Emit): FlowBatcher {
  const tracker = createFlowTracker();
  const delegations = new Map<string, DelegationUpdate>();
  const progress = new Map<string, TaskProgress>();
  const toolCalls = new Map<string, ToolCallView>();
  /** Calls started and not ended yet: their result line names the server again, their start time is here. */
  const started = new Map<string, number>();
  const keep = <V>(map: Map<string, V>, key: string, v: V) => {
    map.delete(key);
    map.set(key, v);
    if (map.size > MAX_PER_FLUSH) map.delete(map.keys().next().value as string);
  };
  /** As `keep`, but an entry stays where it first came: a flush lists delegations in call order, as a page that reads the trace does. */
  const keepInPlace = <V>(map: Map<string, V>, key: string, v: V) => {
    if (!map.has(key) && map.size >= MAX_PER_FLUSH) map.delete(map.keys().next().value as string);
    map.set(key, v);
  };
  return {
    push(line) {
      const out = tracker.push(line);
      for (const d of out.delegation ?? []) keepInPlace(delegations, `${d.taskId}\0${d.callId}`, d);
      if (out.progress) keep(progress, out.progress.taskId, out.progress);
      // A task that ended has no current turn: its last progress would only be noise.
      if (line.event_type === 'task_end' && line.task_id) progress.delete(line.task_id);
      const l = line as TraceEvent & Record<string, unknown>;
      if (
        (l.event_type === 'tool_call' || l.event_type === 'tool_result') &&
        typeof l.mcp_server === 'string' &&
        typeof l.call_id === 'string'
      ) {
        const key = `${l.task_id ?? ''}\0${l.call_id}`;
        const at =
          l.event_type === 'tool_call' ? Date.parse(String(l.ts)) || Date.now() : (started.get(key) ?? Date.now());
        if (l.event_type === 'tool_call') {
          started.set(key, at);
          if (started.size > MAX_PER_FLUSH) started.delete(started.keys().next().value as string);
        } else started.delete(key);
        const state = l.event_type === 'tool_call' ? 'running' : l.ok === false ? 'failed' : 'ok';
        keep(toolCalls, key, {
          capsuleId,
          sessionId,
          callId: l.call_id,
          server: l.mcp_server,
          tool: typeof l.mcp_tool === 'string' ? l.mcp_tool : String(l.name ?? ''),
          state,
          at,
          ...(typeof l.task_id === 'string' ? { taskId: l.task_id } : {}),
          ...(typeof l.duration_ms === 'number' ? { durationMs: l.duration_ms } : {}),
        });
      }
    },
    flush() {
      if (delegations.size)
        emit('delegation.updated', { sessionId, capsuleId, delegations: [...delegations.values()] });
      if (progress.size) emit('task.progressed', { sessionId, capsuleId, tasks: [...progress.values()] });
      if (toolCalls.size) emit('mcp.called', { sessionId, capsuleId, calls: [...toolCalls.values()] });
      toolCalls.clear();
      delegations.clear();
      progress.clear();
    },
  };
}

/** Follows a session's trace into flow events; returns the unsubscribe (which flushes). */
export function watchFlow(session: Session, capsuleId: string, emit: Emit, flushMs: number): () => void {
  const batcher = createFlowBatcher(session.id, capsuleId, emit);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const off = session.trace.subscribe((line) => {
    batcher.push(line);
    timer ??= setTimeout(() => {
      timer = undefined;
      batcher.flush();
    }, flushMs);
  });
  return () => {
    off();
    clearTimeout(timer);
    batcher.flush();
  };
}
