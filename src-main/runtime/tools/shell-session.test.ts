import { afterEach, describe, expect, it } from 'vitest';
import { startSession } from '../../launch';
import { readTraceFile, rehearsal, rpc, scene, traceOf, userMessage, waitFor, type Scene } from './formation.fixture';

// The shell tool inside a session: a cancel does not wait for a foreground command, names it as
// residue in the answer and in task_canceled, and the session's end kills it.

let s: Scene;
afterEach(async () => {
  await s?.dispose();
});

describe('shell in a session', () => {
  it('cancel moves a foreground command to the background; the session end kills it', async () => {
    s = scene();
    const session = await startSession({
      manifestPath: s.manifest('runner', {
        inference: rehearsal([
          {
            turns: [
              { tool_calls: [{ name: 'shell', arguments: { command: ['sh', '-c', 'echo $$; exec sleep 30'] } }] },
              { text: 'never' },
            ],
          },
        ]),
        capabilities: { shell: { allow: ['sh'] } },
      }),
      env: s.env,
      port: 0,
    });
    s.sessions.push(session);
    const sent = await rpc(session.url, 'SendMessage', {
      message: userMessage('run it'),
      configuration: { returnImmediately: true },
    });
    const started = await waitFor('shell_start', () => traceOf(session).find((l) => l.event_type === 'shell_start'));
    const t0 = Date.now();
    const canceled = await rpc(session.url, 'CancelTask', { id: sent.task.id });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const residue = canceled.artifacts.find((a: any) => a.name === 'residue').parts.map((p: any) => p.data);
    expect(residue).toEqual([
      {
        kind: 'detached_shell',
        work_id: started.work_id,
        binary: 'sh',
        command: "sh -c 'echo $$; exec sleep 30'",
        started_at_ms: expect.any(Number),
      },
    ]);
    const lines = traceOf(session);
    const canceledLine = lines.find((l) => l.event_type === 'task_canceled');
    expect(canceledLine?.in_flight).toEqual([expect.stringContaining(started.work_id)]);
    expect(lines.findIndex((l) => l.event_type === 'task_canceled')).toBeLessThan(
      lines.findIndex((l) => l.event_type === 'task_end'),
    );
    // Still running after the cancel, and still the session's residue.
    const stop = await rpc(session.url, 'murmur.StopSession', {});
    expect(stop.residue).toEqual(residue);
    expect(traceOf(session).some((l) => l.event_type === 'shell_exit')).toBe(false);
    await session.end('test over');
    // It ran until the session ended, which killed it.
    const after = readTraceFile(session.trace.path);
    expect(after.find((l) => l.event_type === 'shell_exit')).toMatchObject({
      work_id: started.work_id,
      killed_by: 'session ended',
    });
  });
});
