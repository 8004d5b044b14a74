import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_REPLAY_BYTES, MAX_REPLAY_LINES } from '../../src-shared/contract';
import { delegationsOf, type TraceEvent } from '../../src-shared/trace';
import { rpc, traceOf, userMessage } from '../runtime/tools/formation.fixture';
import { recordFormation, type RecordedFormation } from './recorded.fixture';
import { replayOf } from './replay';

// Replay gathering: one formation run recorded across three sessions (an orchestrator, a peer
// already running, a sub-capsule) becomes one time-ordered list of the flow steps the live
// events carry, derived by the same tracker, and only this run's tasks.

let rec: RecordedFormation | undefined;
afterEach(async () => {
  await rec?.dispose();
  rec = undefined;
});

describe('sessions.replay gathering', () => {
  it('follows the delegations into the other sessions and orders every step in time', async () => {
    rec = await recordFormation();
    // worker-a also served another caller: that task is not part of the run.
    await rpc(rec.a.url, 'SendMessage', {
      message: userMessage('an unrelated caller'),
      configuration: { returnImmediately: false },
    });
    const r = await replayOf(rec.orch.trace.path, rec.recordsRoot);
    expect(r.entry).toBe('orchestrator');
    expect(r.capsules.map((c) => c.capsule)).toEqual(['orchestrator', 'worker-a', 'worker-b']);
    expect(r.truncated).toBe(false);
    expect(r.notes).toEqual([]);
    const capsulesOfSteps = new Set(r.steps.map((s) => s.capsule));
    expect([...capsulesOfSteps].sort()).toEqual(['orchestrator', 'worker-a', 'worker-b']);
    // Time order, and every step points at the line that made it.
    for (let i = 1; i < r.lines.length; i++) expect(r.lines[i].at).toBeGreaterThanOrEqual(r.lines[i - 1].at);
    for (const s of r.steps)
      expect(r.lines[s.line]).toMatchObject({ sessionId: s.sessionId, capsule: s.capsule, at: s.at });
    expect(r.lines.some((l) => JSON.stringify(l.event).includes('an unrelated caller'))).toBe(false);

    // The hops as they last stood are what the live tracker derives from the orchestrator's trace.
    const hops = new Map<string, unknown>();
    for (const s of r.steps) for (const d of s.delegations ?? []) hops.set(d.callId, d);
    expect([...hops.values()]).toEqual(delegationsOf(traceOf(rec.orch) as TraceEvent[]));
    expect([...hops.values()].map((d: any) => d.state)).toEqual(['answered', 'answered']);

    // A hop goes out before the worker's task starts, and the run ends with the orchestrator's answer.
    const out = r.steps.findIndex((s) => s.delegations?.some((d) => d.state === 'running'));
    const workerStart = r.steps.findIndex((s) => s.capsule === 'worker-b' && s.task?.state === 'TASK_STATE_WORKING');
    expect(out).toBeGreaterThanOrEqual(0);
    expect(workerStart).toBeGreaterThan(out);
    const ends = r.steps.filter((s) => s.task?.state === 'TASK_STATE_COMPLETED');
    expect(ends.map((s) => s.capsule).sort()).toEqual(['orchestrator', 'worker-a', 'worker-b']);
    expect(ends.at(-1)).toMatchObject({ capsule: 'orchestrator', task: { text: rec.answer } });
    expect(ends.find((s) => s.capsule === 'worker-b')?.task?.text).toBe('worker-b: two open questions');
  });

  it('replays one task of a session when asked, and says where a long run is cut', async () => {
    rec = await recordFormation();
    const taskId = traceOf(rec.orch).find((l) => l.event_type === 'task_start')!.task_id as string;
    const one = await replayOf(rec.orch.trace.path, rec.recordsRoot, { taskId });
    expect(
      new Set(one.lines.filter((l) => l.capsule === 'orchestrator' && l.event.task_id).map((l) => l.event.task_id)),
    ).toEqual(new Set([taskId]));

    // A session of more lines than a replay holds: its first MAX_REPLAY_LINES come, and a note says so.
    const base = { session_id: 'ses_' + '0'.repeat(32), task_id: 'task-long' };
    const ts = (i: number) => new Date(Date.UTC(2026, 0, 1) + i).toISOString();
    const write = async (name: string, body: object[]) => {
      const dir = join(rec!.s.dir, name, base.session_id);
      mkdirSync(dir, { recursive: true });
      const lines = [
        { ...base, ts: ts(0), event_type: 'a2a_task_received', text: 'go', context_id: 'c' },
        { ...base, ts: ts(1), event_type: 'task_start' },
        ...body,
      ];
      writeFileSync(join(dir, 'trace.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      return await replayOf(join(dir, 'trace.jsonl'), join(rec!.s.dir, name));
    };
    const long = await write(
      'long',
      Array.from({ length: MAX_REPLAY_LINES + 10 }, (_, i) => ({
        ...base,
        ts: ts(i + 2),
        event_type: 'artifact',
        artifact_id: 'a',
        parts: 1,
        append: true,
      })),
    );
    expect(long.truncated).toBe(true);
    expect(long.lines).toHaveLength(MAX_REPLAY_LINES);
    expect(long.notes).toEqual([expect.stringMatching(/longer than a replay holds/)]);
    // Streamed text makes a step per line: the bytes bound cuts it first, lines and steps counted.
    const streamed = await write(
      'streamed',
      Array.from({ length: MAX_REPLAY_LINES }, (_, i) => ({
        ...base,
        ts: ts(i + 2),
        event_type: 'frame',
        turn: 1,
        text: 'x'.repeat(40),
      })),
    );
    expect(streamed.truncated).toBe(true);
    expect(streamed.lines.length).toBeLessThan(MAX_REPLAY_LINES);
    expect(JSON.stringify(streamed.lines).length + JSON.stringify(streamed.steps).length).toBeLessThanOrEqual(
      MAX_REPLAY_BYTES,
    );
  });
});
