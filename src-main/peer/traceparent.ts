import { randomBytes } from 'node:crypto';

// W3C trace context (traceparent: 00-<32 hex trace id>-<16 hex span id>-01). A delegation keeps
// the trace id of the task that caused it, so a worker's a2a_task_received names the orchestrator
// task's trace and the Studio can draw which task caused which.

const TRACEPARENT_RE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);

/** The trace id of a traceparent header, or undefined when it is not a valid one. */
export function traceIdOf(traceparent: string | undefined): string | undefined {
  const m = traceparent ? TRACEPARENT_RE.exec(traceparent.trim().toLowerCase()) : null;
  return m && m[1] !== ZERO_TRACE ? m[1] : undefined;
}

/**
 * The trace id a task's outgoing work belongs to: the one it arrived with (a hop further down a
 * formation stays in the same trace), else the task id's own 32 hex digits, so the trace id is
 * derived from, and recoverable from, the orchestrator task.
 */
export function traceIdForTask(taskId: string, incoming?: string): string {
  const inherited = traceIdOf(incoming);
  if (inherited) return inherited;
  const m = /^tsk_([0-9a-f]{32})$/.exec(taskId);
  return m && m[1] !== ZERO_TRACE ? m[1] : randomBytes(16).toString('hex');
}

export const newSpanId = (): string => randomBytes(8).toString('hex');

export function formatTraceparent(traceId: string, spanId: string = newSpanId()): string {
  return `00-${traceId}-${spanId}-01`;
}
