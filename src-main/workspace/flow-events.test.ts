import { afterEach, describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src-shared/trace';
import type { EventMap } from '../../src-shared/contract';
import { createFlowBatcher, MAX_PER_FLUSH } from './flow-events';
import { createTestStudio, type TestStudio } from './test-studio';

// The compact events every client gets about a running capsule: a burst of trace lines becomes
// one delegation.updated and one task.progressed per flush, each call and task at its latest.

const line = (event_type: string, extra: Record<string, unknown>, task_id = 't1'): TraceEvent =>
  ({ ts: '2026-01-01T00:00:00.000Z', session_id: 'ses', task_id, event_type, ...extra }) as TraceEvent;

function recorder() {
  const sent: { event: string; payload: unknown }[] = [];
  const emit = <E extends keyof EventMap>(event: E, payload: EventMap[E]) => void sent.push({ event, payload });
  return { sent, emit };
}

describe('createFlowBatcher', () => {
  it('turns a burst into one event of each kind, with each call and task in its latest state', () => {
    const { sent, emit } = recorder();
    const b = createFlowBatcher('ses', 'coordinator', emit);
    b.push(line('task_start', {}));
    for (let i = 0; i < 2000; i++) b.push(line('frame', { kind: 'text_delta', turn: 1, text: 'ab' }));
    for (let i = 0; i < 40; i++)
      b.push(line('tool_call', { call_id: `c${i}`, name: 'delegate_task', arguments: { to: 'writer' } }));
    for (let i = 0; i < 40; i++)
      b.push(
        line('tool_result', {
          call_id: `c${i}`,
          name: 'delegate_task',
          ok: i % 2 === 0,
          result: i % 4 === 1 ? 'canceled' : 'x',
        }),
      );
    b.flush();
    expect(sent.map((s) => s.event)).toEqual(['delegation.updated', 'task.progressed']);
    const d = sent[0].payload as EventMap['delegation.updated'];
    expect(d).toMatchObject({ sessionId: 'ses', capsuleId: 'coordinator' });
    expect(d.delegations).toHaveLength(40);
    expect(d.delegations.filter((x) => x.state === 'answered')).toHaveLength(20);
    expect(d.delegations.filter((x) => x.state === 'canceled')).toHaveLength(10);
    expect(d.delegations.filter((x) => x.state === 'failed')).toHaveLength(10);
    const p = sent[1].payload as EventMap['task.progressed'];
    expect(p.tasks).toEqual([{ taskId: 't1', turn: 1, text: expect.stringMatching(/^(ab)+$/) }]);
    b.flush();
    expect(sent).toHaveLength(2); // nothing new, nothing sent
  });

  it('keeps at most MAX_PER_FLUSH entries of a flush, the newest', () => {
    const { sent, emit } = recorder();
    const b = createFlowBatcher('ses', 'o', emit);
    for (let i = 0; i < MAX_PER_FLUSH + 10; i++)
      b.push(line('tool_call', { call_id: 'c', name: 'delegate_task', arguments: { to: 'w' } }, `t${i}`));
    b.flush();
    const d = (sent[0].payload as EventMap['delegation.updated']).delegations;
    expect(d).toHaveLength(MAX_PER_FLUSH);
    expect(d[d.length - 1].taskId).toBe(`t${MAX_PER_FLUSH + 9}`);
  });

  it("lists a flush's delegations in the order their calls came, however they were updated after", () => {
    const { sent, emit } = recorder();
    const b = createFlowBatcher('ses', 'o', emit);
    b.push(line('tool_call', { call_id: 'c1', name: 'delegate_task', arguments: { to: 'researcher' } }));
    b.push(line('tool_call', { call_id: 'c2', name: 'delegate_task', arguments: { to: 'writer' } }));
    b.push(line('delegation_start', { call_id: 'c2', delegation_id: 'd2', to: 'writer', capsule: 'writer' }));
    b.push(line('delegation_start', { call_id: 'c1', delegation_id: 'd1', to: 'researcher', capsule: 'researcher' }));
    b.push(line('delegation_end', { call_id: 'c1', delegation_id: 'd1', state: 'TASK_STATE_COMPLETED' }));
    b.flush();
    const d = (sent[0].payload as EventMap['delegation.updated']).delegations;
    expect(d.map((x) => [x.callId, x.state])).toEqual([
      ['c1', 'answered'],
      ['c2', 'running'],
    ]);
  });

  it('drops the progress of a task that ended within the flush', () => {
    const { sent, emit } = recorder();
    const b = createFlowBatcher('ses', 'o', emit);
    b.push(line('task_start', {}));
    b.push(line('task_end', { state: 'TASK_STATE_COMPLETED' }));
    b.flush();
    expect(sent).toEqual([]);
  });
});

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

describe('flow events from a running formation', () => {
  it('the coordinator of the example formation reports both delegations, running then answered, with the worker tasks they became', async () => {
    studio = await createTestStudio();
    await studio.core.invoke('formation.launch', {});
    const task = await studio.core.invoke('task.send', {
      capsuleId: 'coordinator',
      text: 'tide pools',
      returnImmediately: true,
    });
    await studio.next(
      'task.updated',
      (u) => u.task.id === task.id && u.task.status.state === 'TASK_STATE_COMPLETED',
      20_000,
    );
    await new Promise((r) => setTimeout(r, 150)); // the last flush
    const updates = studio.events
      .filter((e) => e.event === 'delegation.updated')
      .map((e) => e.payload as EventMap['delegation.updated']);
    expect(updates.every((u) => u.capsuleId === 'coordinator')).toBe(true);
    const all = updates.flatMap((u) => u.delegations);
    expect(all.some((d) => d.state === 'running' && d.to === 'researcher')).toBe(true);
    const final = new Map(all.map((d) => [d.callId, d]));
    expect([...final.values()].map((d) => [d.to, d.state]).sort()).toEqual([
      ['researcher', 'answered'],
      ['writer', 'answered'],
    ]);
    const researcherTasks = studio.events
      .filter((e) => e.event === 'task.updated' && (e.payload as EventMap['task.updated']).capsuleId === 'researcher')
      .map((e) => (e.payload as EventMap['task.updated']).task.id);
    expect(researcherTasks).toContain([...final.values()].find((d) => d.to === 'researcher')!.childTaskId);
    // Few events for the whole run: batched, not one per line.
    expect(updates.length).toBeLessThanOrEqual(8);
    const progress = studio.events
      .filter((e) => e.event === 'task.progressed')
      .map((e) => e.payload as EventMap['task.progressed']);
    expect(
      progress
        .flatMap((p) => p.tasks)
        .some((t) => t.taskId === task.id && t.turn === 1 && t.waiting === 'delegate_task ×2'),
    ).toBe(true);
  }, 30_000);
});
