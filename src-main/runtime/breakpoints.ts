import { AbortedError } from '../drivers';
import { traceTask, type SessionCore } from './core';
import { statusMessage, type LiveTask } from './tasks';
import {
  DEFAULT_PAUSE_TIMEOUT_MS,
  PAUSE_TEXT_CHARS,
  type PauseOutcome,
  type PausePoint,
  type ResumeAction,
  type SessionBreakpoints,
} from './pause';

// Breakpoints: a task pauses before its next model turn, or before a delegation leaves for a
// chosen capsule, with what it is about to send. While paused it holds no running slot (it is
// parked like a task waiting for input, so the next queued task starts) and it takes the slot back
// first in line when resumed. The user continues (with the message edited or not), steps (runs
// one turn, then pauses before the next), or cancels (a normal cancel, residue and all). A pause
// nobody answers continues by itself after its timeout, as if no breakpoint had been set: the work
// a forgotten breakpoint held is not lost, and the trace and the Studio say the pause timed out.

/** Same door: same port and host, localhost and 127.0.0.1 taken as one. */
export function sameDoor(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    const host = (h: string) => (h === 'localhost' ? '127.0.0.1' : h);
    return x.port === y.port && host(x.hostname) === host(y.hostname);
  } catch {
    return false;
  }
}

/** Whether the task pauses at `point`: a breakpoint there, or a step before a turn. */
export function pausesAt(bp: SessionBreakpoints | undefined, t: LiveTask, point: PausePoint): boolean {
  if (point.kind === 'turn') return t.stepping === true || bp?.turn === true;
  if (!bp) return false;
  return bp.edges.some(
    (e) =>
      e.names.includes(point.to) ||
      (!!point.capsule && e.names.includes(point.capsule)) ||
      (!!point.url && e.urls.some((u) => sameDoor(u, point.url))),
  );
}

/**
 * Pauses the task at `point` when a breakpoint (or a step) asks for it; undefined when none does,
 * so a task with no breakpoint pays no promise. Pauses of one task (parallel delegations) come one
 * after the other. Rejects with AbortedError when the task is canceled meanwhile.
 */
export function pauseAt(
  core: SessionCore,
  t: LiveTask,
  point: PausePoint,
  takeSlotBack: () => Promise<void>,
): Promise<PauseOutcome> | undefined {
  if (!pausesAt(core.breakpoints, t, point)) return undefined;
  if (point.kind === 'turn') t.stepping = false;
  const run = () => pause(core, t, point).then(async (outcome) => (await takeSlotBack(), outcome));
  const next = (t.pausing ?? Promise.resolve()).then(run, run);
  t.pausing = next.catch(() => undefined);
  return next;
}

function pause(core: SessionCore, t: LiveTask, point: PausePoint): Promise<PauseOutcome> {
  const signal = t.controller.signal;
  if (signal.aborted) return Promise.reject(new AbortedError());
  const timeoutMs = core.breakpoints?.timeoutMs ?? DEFAULT_PAUSE_TIMEOUT_MS;
  const before = t.waiting;
  const started = Date.now();
  const n = (t.pauses = (t.pauses ?? 0) + 1);
  const shown = point.text.length > PAUSE_TEXT_CHARS ? point.text.slice(0, PAUSE_TEXT_CHARS) : point.text;
  const where = point.kind === 'turn' ? `turn ${point.turn}` : `the delegation to ${point.capsule || point.to}`;
  t.waiting = `breakpoint before ${where}`;
  traceTask(core, t, {
    event_type: 'breakpoint_hit',
    point: point.kind,
    ...(point.kind === 'turn'
      ? { turn: point.turn }
      : {
          to: point.to,
          capsule: point.capsule,
          peer_url: point.url,
          ...(point.callId ? { call_id: point.callId } : {}),
        }),
    text: shown,
    ...(shown !== point.text ? { text_chars: point.text.length } : {}),
    timeout_ms: timeoutMs,
  });
  core.registry.setStatus(
    t,
    'TASK_STATE_WORKING',
    statusMessage(t.id, t.contextId, `paused at a breakpoint before ${where}`, `pause_${n}`),
  );
  core.queue.park(t.id);
  queueMicrotask(core.pump);
  return new Promise<PauseOutcome>((resolve, reject) => {
    const back = () => {
      t.waiting = before;
      core.registry.setStatus(t, 'TASK_STATE_WORKING');
    };
    const end = (fields: Record<string, unknown>) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      t.pause = undefined;
      traceTask(core, t, { event_type: 'breakpoint_resumed', ...fields, waited_ms: Date.now() - started });
    };
    const onAbort = () => {
      end({ action: 'cancel', edited: false, by: 'user' });
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      end({ action: 'continue', edited: false, by: 'timeout' });
      back();
      resolve({ text: point.text, edited: false });
    }, timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    t.pause = {
      shown,
      editable: shown === point.text,
      resume(action, text) {
        // A cut message cannot be edited (resumeBreakpoint refuses it): what was not shown would be lost.
        const edited = text !== undefined && text !== shown && shown === point.text;
        // The edited text goes into the trace (masked like every line): a recording of this run
        // (a replay, a saved test, a fork) then sends what the worker really got, not what the
        // model first wrote.
        end({
          action,
          edited,
          by: 'user',
          ...(edited ? { text, ...(point.kind === 'edge' && point.callId ? { call_id: point.callId } : {}) } : {}),
        });
        if (action === 'step') t.stepping = true;
        back();
        resolve({ text: edited ? text : point.text, edited });
      },
    };
  });
}

/** Why a resume could not be done (no such paused task, a message that cannot be edited). */
export class BreakpointError extends Error {}

/** Resumes the paused task `t` (Session.resumeBreakpoint). */
export function resumePaused(t: LiveTask | undefined, taskId: string, action: ResumeAction, text?: string): void {
  const pause = t?.pause;
  if (!pause) throw new BreakpointError(`task ${taskId} is not paused at a breakpoint`);
  if (text !== undefined && text !== pause.shown && !pause.editable) {
    throw new BreakpointError(
      `the message of task ${taskId} is longer than ${PAUSE_TEXT_CHARS} characters and was shown cut: it cannot be edited, only continued`,
    );
  }
  if (text !== undefined && !text.trim()) throw new BreakpointError('the edited message is empty');
  pause.resume(action, text);
}
