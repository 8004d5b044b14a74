import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newSessionId } from '../../src-shared/ids';
import { readTraceLines } from '../trace';
import { syntheticSessionEvents } from '../trace/synthetic';
import { gatherRun } from './gather';
import { replayOf } from './replay';
import { recordedSession } from './tasks';

// A replay and a rehearsal's walk read a trace in pieces and fold each piece as it arrives (the
// Studio's main thread never folds a whole trace at once). What they find must be exactly what
// one read of the whole file finds: the same lines in the same places, the same tasks.

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A session's trace of `tasks` synthetic tasks with a line not JSON, a foreign line and a blank line among them. */
function writeTrace(tasks: number): string {
  root = mkdtempSync(join(tmpdir(), 'capsule-replay-pieces-'));
  const sessionId = newSessionId();
  const dir = join(root, sessionId);
  mkdirSync(dir, { recursive: true });
  const t0 = Date.UTC(2026, 0, 1);
  const lines = [...syntheticSessionEvents({ tasks, answerWord: 'pieces' })].map((e, i) =>
    JSON.stringify({ ts: new Date(t0 + i * 7).toISOString(), session_id: sessionId, ...e }),
  );
  lines.splice(1000, 0, 'not json at all');
  lines.splice(
    2000,
    0,
    JSON.stringify({ ts: new Date(t0).toISOString(), session_id: newSessionId(), event_type: 'x' }),
  );
  lines.splice(3000, 0, '');
  const path = join(dir, 'trace.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('a recorded run read in pieces', () => {
  it('replays every line of the run in the place a whole-file read gives it', async () => {
    const path = writeTrace(500);
    // Many pieces: the fold goes on across every piece boundary.
    expect(statSync(path).size).toBeGreaterThan(8 * 128 * 1024);
    const whole = readTraceLines(path).lines;
    const run = await replayOf(path, root!);
    const expected = whole
      .map((l, seq) => ({ seq, event: l.event }))
      .filter((l) => typeof l.event.task_id === 'string');
    expect(run.lines.map((l) => ({ seq: l.seq, event: l.event }))).toEqual(expected);
    expect(run.steps.filter((s) => s.task?.state === 'TASK_STATE_COMPLETED')).toHaveLength(500);
    expect(run.truncated).toBe(false);
  });

  it('finds the tasks a fold of the whole file finds', async () => {
    const path = writeTrace(500);
    const whole = recordedSession(readTraceLines(path).lines.map((l) => l.event));
    const run = await gatherRun(path, root!);
    expect(run.capsules).toHaveLength(1);
    expect(run.capsules[0]).toMatchObject({ capsule: whole.capsule, sessionIds: [whole.sessionId] });
    expect(run.capsules[0].tasks).toEqual(whole.tasks);
    expect(whole.tasks).toHaveLength(500);
  });
});
