import { useEffect, useState } from 'react';
import type { TaskTraceView } from '../../../src-shared/contract';
import { describeError, invoke } from '../../store';

/** Tries after a task ended whose task_end line the index had not read yet (it follows traces every second). */
const LATE_TRIES = 3;
const LATE_WAIT_MS = 700;
/** While the task runs, its turns are read again this often (only while its details are open). */
const RUNNING_POLL_MS = 2000;

/**
 * A task's trace lines (sessions.taskTrace), read again whenever `version` changes (the task's
 * state or status time moved), every RUNNING_POLL_MS while it runs, and a few times more after its
 * end until the end is in them.
 */
export function useTaskTrace(
  sessionId: string | undefined,
  taskId: string,
  version: string,
  ended: boolean,
): { trace?: TaskTraceView; error?: string } {
  const [got, setGot] = useState<{ key: string; trace?: TaskTraceView; error?: string }>({ key: '' });
  const key = `${sessionId}:${taskId}`;
  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async (tries: number) => {
      try {
        const trace = await invoke('sessions.taskTrace', { sessionId, taskId });
        if (!live) return;
        setGot({ key, trace });
        const endSeen = trace.events.some((e) => e.event_type === 'task_end');
        if (!ended) timer = setTimeout(() => void read(tries), RUNNING_POLL_MS);
        else if (!endSeen && tries > 0) timer = setTimeout(() => void read(tries - 1), LATE_WAIT_MS);
      } catch (err) {
        if (live) setGot({ key, error: describeError(err) });
      }
    };
    void read(LATE_TRIES);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [sessionId, taskId, version, ended, key]);
  return got.key === key ? got : {};
}
