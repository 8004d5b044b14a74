import { afterEach, describe, expect, it, vi } from 'vitest';
import { useStudio, type TaskRecord } from './index';
import { unfinishedTasks } from './tasksSlice';

// Stop session and Stop all end every task still running: with any running, the store asks first
// (saying how many); with none, it stops at once.

const initial = useStudio.getState();
afterEach(() => useStudio.setState(initial, true));

const task = (id: string, capsuleId: string, state: string, sessionId = `ses_${capsuleId}`): TaskRecord => ({
  capsuleId,
  sessionId,
  task: { id, contextId: 'c', status: { state } } as TaskRecord['task'],
});

function setup() {
  const stopAll = vi.fn(async () => undefined);
  const stopSession = vi.fn(async () => undefined);
  useStudio.setState({
    capsules: { a: { sessionId: 'ses_a' }, b: { sessionId: 'ses_b' } } as never,
    tasks: {
      t1: task('t1', 'a', 'TASK_STATE_WORKING'),
      t2: task('t2', 'a', 'TASK_STATE_INPUT_REQUIRED'),
      t3: task('t3', 'b', 'TASK_STATE_WORKING'),
      t4: task('t4', 'b', 'TASK_STATE_COMPLETED'),
      t5: task('t5', 'b', 'TASK_STATE_WORKING', 'ses_old'), // an earlier session's, ended with it
    },
    stopAll,
    stopSession,
  });
  return { stopAll, stopSession };
}

describe('stopping with tasks running', () => {
  it('counts the unfinished tasks of the running sessions', () => {
    setup();
    expect(unfinishedTasks(useStudio.getState()).running).toBe(3);
    expect(unfinishedTasks(useStudio.getState(), 'a').running).toBe(2);
    expect(unfinishedTasks(useStudio.getState(), 'b').running).toBe(1);
  });

  it('Stop all asks first, saying how many; Keep running stops nothing, yes stops all', async () => {
    const { stopAll } = setup();
    await useStudio.getState().requestStop();
    expect(useStudio.getState().stopAsk).toEqual({ capsuleId: undefined, running: 3, paused: 0 });
    expect(stopAll).not.toHaveBeenCalled();
    await useStudio.getState().answerStop(false);
    expect(stopAll).not.toHaveBeenCalled();
    expect(useStudio.getState().stopAsk).toBeNull();
    await useStudio.getState().requestStop();
    await useStudio.getState().answerStop(true);
    expect(stopAll).toHaveBeenCalledTimes(1);
  });

  it('Stop session asks about its own tasks; with none running it stops at once', async () => {
    const { stopSession } = setup();
    await useStudio.getState().requestStop('a');
    expect(useStudio.getState().stopAsk).toEqual({ capsuleId: 'a', running: 2, paused: 0 });
    await useStudio.getState().answerStop(true);
    expect(stopSession).toHaveBeenCalledWith('a');
    useStudio.setState({ tasks: {} });
    await useStudio.getState().requestStop('b');
    expect(useStudio.getState().stopAsk).toBeNull();
    expect(stopSession).toHaveBeenLastCalledWith('b');
  });

  it("says how many of them are paused at a breakpoint, from the core's record of pauses", async () => {
    setup();
    useStudio.setState({
      breakpointMarks: {
        ...useStudio.getState().breakpointMarks,
        tasks: { t1: { point: 'edge', to: 'writer' } },
      } as never,
    });
    await useStudio.getState().requestStop('a');
    expect(useStudio.getState().stopAsk).toEqual({ capsuleId: 'a', running: 2, paused: 1 });
  });

  it('a capsule still starting (no session yet) has its start ended at once', async () => {
    const { stopSession } = setup();
    const stopCapsule = vi.fn(async () => undefined);
    useStudio.setState({ capsules: { c: { state: 'starting' } } as never, stopCapsule });
    await useStudio.getState().requestStop('c');
    expect(useStudio.getState().stopAsk).toBeNull();
    expect(stopCapsule).toHaveBeenCalledWith('c');
    expect(stopSession).not.toHaveBeenCalled();
  });
});
