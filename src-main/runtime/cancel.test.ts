import { afterEach, describe, expect, it } from 'vitest';
import type { ResidueItem, Tool } from './tool-types';
import { startTestSession, waitFor, type TestSession } from './testing';
import { traceLines } from './trace-lines';

// Cancel means stopped: tracked work is canceled and its residue reported; late results never
// overwrite CANCELED; queued tasks cancel at once; StopSession reports residue.

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

const shellResidue: ResidueItem = {
  kind: 'detached_shell',
  work_id: 'wrk_9f2a1c',
  binary: 'bash',
  command: 'sleep 30',
  started_at_ms: 1757068800123,
};

/** A tool that starts work it tracks and waits until the task is canceled. */
function spawnTool(log: string[]): Tool {
  return {
    spec: { name: 'spawn', description: 'starts long work', parameters: { type: 'object', properties: {} } },
    run(_args, ctx) {
      return new Promise((resolve) => {
        const untrack = ctx.track({
          describe: () => 'bash: sleep 30',
          async cancel() {
            log.push('canceled');
            return shellResidue;
          },
        });
        ctx.signal.addEventListener('abort', () => {
          untrack();
          // A late result, after the cancel: it must not change the task.
          setTimeout(() => resolve({ ok: true, content: 'late' }), 5);
        });
      });
    },
  };
}

const send = (text: string) => ({
  message: { messageId: 'm', contextId: 'c', role: 'ROLE_USER', parts: [{ text }] },
  configuration: { returnImmediately: true },
});

describe('cancel', () => {
  it('cancels tracked in-flight work and answers with the residue artifact', async () => {
    const log: string[] = [];
    ts = await startTestSession(
      {
        inference: {
          rehearsal: {
            replies: [
              {
                when: 'spawn',
                turns: [{ tool_calls: [{ name: 'spawn', arguments: {} }] }, { text: 'should never answer' }],
              },
            ],
          },
        },
      },
      { tools: [spawnTool(log)] },
    );
    const s = ts.session;
    const id = (await ts.rpc('SendMessage', send('spawn it'))).result.task.id;
    await waitFor(s, () => traceLines(s).some((l) => l.event_type === 'tool_call'));
    const r = await ts.rpc('CancelTask', { id });
    expect(log).toEqual(['canceled']);
    expect(r.result.status.state).toBe('TASK_STATE_CANCELED');
    expect(r.result.artifacts).toEqual([
      { artifactId: 'residue', name: 'residue', parts: [{ data: shellResidue, mediaType: 'application/json' }] },
    ]);
    await new Promise((res) => setTimeout(res, 30));
    const after = s.peekTask(id)!;
    expect(after.status.state).toBe('TASK_STATE_CANCELED');
    expect(after.artifacts?.map((a) => a.artifactId)).toEqual(['residue']);
    const lines = traceLines(s).filter((l) => l.task_id === id);
    expect(lines.find((l) => l.event_type === 'task_canceled')).toMatchObject({
      interrupted: 'tools: spawn',
      in_flight: ['bash: sleep 30'],
      by: 'client',
    });
    expect(lines.filter((l) => l.event_type === 'task_end')).toHaveLength(1);
  });

  it('StopSession reports residue of every task it cancels', async () => {
    ts = await startTestSession(
      { inference: { rehearsal: { replies: [{ turns: [{ tool_calls: [{ name: 'spawn', arguments: {} }] }] }] } } },
      { tools: [spawnTool([])] },
    );
    const s = ts.session;
    const id = (await ts.rpc('SendMessage', send('x'))).result.task.id;
    await waitFor(s, () => traceLines(s).some((l) => l.event_type === 'tool_call'));
    const r = await ts.rpc('murmur.StopSession', {});
    expect(r.result).toEqual({ session_id: s.id, canceled: [id], residue: [shellResidue] });
  });

  it('canceling a queued task cancels it at once and the queue goes on in order', async () => {
    ts = await startTestSession({
      lifecycle: { queue_depth: 3 },
      inference: { rehearsal: { replies: [{ when: 'hang', turns: [{ hang: true }] }] } },
    });
    const s = ts.session;
    const a = (await ts.rpc('SendMessage', send('hang a'))).result.task.id;
    const b = (await ts.rpc('SendMessage', send('queued b'))).result.task.id;
    const c = (await ts.rpc('SendMessage', send('queued c'))).result.task.id;
    expect(s.status()).toMatchObject({ running: a, queued: 2 });
    const rb = await ts.rpc('CancelTask', { id: b });
    expect(rb.result.status.state).toBe('TASK_STATE_CANCELED');
    expect(traceLines(s).find((l) => l.event_type === 'task_canceled' && l.task_id === b)).toMatchObject({
      interrupted: 'queue',
    });
    await ts.rpc('CancelTask', { id: a });
    await waitFor(s, () => s.taskState(c) === 'TASK_STATE_COMPLETED');
    expect(traceLines(s).some((l) => l.event_type === 'task_start' && l.task_id === b)).toBe(false);
  });

  it('a second cancel of the same task is -32002', async () => {
    ts = await startTestSession({ inference: { rehearsal: { replies: [{ turns: [{ hang: true }] }] } } });
    const id = (await ts.rpc('SendMessage', send('x'))).result.task.id;
    await ts.rpc('CancelTask', { id });
    const again = await ts.rpc('CancelTask', { id });
    expect(again.error).toMatchObject({
      code: -32002,
      data: [{ metadata: { taskId: id, state: 'TASK_STATE_CANCELED' } }],
    });
  });

  it('emits status and artifact updates in order, with the same status GetTask shows', async () => {
    ts = await startTestSession();
    const s = ts.session;
    const events: Array<{ id: string; kind: string; state?: string }> = [];
    let last: unknown;
    s.onTaskEvent((id, e) => {
      if (e.statusUpdate) {
        events.push({ id, kind: 'status', state: e.statusUpdate.status.state });
        last = e.statusUpdate.status;
      } else if (e.artifactUpdate) events.push({ id, kind: `artifact:${e.artifactUpdate.artifact.artifactId}` });
    });
    const r = await ts.rpc('SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } });
    expect(events.map((e) => e.state ?? e.kind)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'artifact:response',
      'TASK_STATE_COMPLETED',
    ]);
    expect(last).toEqual(s.peekTask(r.result.task.id)!.status);
  });
});
