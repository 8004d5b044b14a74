import { afterEach, describe, expect, it } from 'vitest';
import { startSession } from '../launch';
import type { Session } from './api';
import type { SessionBreakpoints } from './pause';
import { rehearsal, rpc, scene, traceOf, userMessage, waitFor, type Scene } from './tools/formation.fixture';

// Breakpoints: a task pauses before its next turn or before a delegation crosses an edge, with
// what it is about to send; the user edits it, steps, continues or cancels; a paused task holds no
// running slot, and a forgotten pause continues by itself after its timeout.

let s: Scene;
afterEach(async () => {
  await s?.dispose();
});

const none: SessionBreakpoints = { turn: false, edges: [], timeoutMs: 60_000 };
const lines = (session: Session, type: string, taskId?: string) =>
  traceOf(session).filter((l) => l.event_type === type && (!taskId || l.task_id === taskId));
const stateOf = (session: Session, id: string) => session.taskState(id);
const answerOf = (session: Session, id: string) =>
  (session.peekTask(id)?.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('\n');
const send = async (session: Session, text: string) =>
  (await rpc(session.url, 'SendMessage', { message: userMessage(text), configuration: { returnImmediately: true } }))
    .task.id as string;

async function start(name: string, body: Record<string, unknown>): Promise<Session> {
  const session = await startSession({ manifestPath: s.manifest(name, body), env: s.env, port: 0 });
  s.sessions.push(session);
  return session;
}

/** A worker quoting what it was asked, a hanging one, and an orchestrator delegating to both (or to one). */
async function formation(opts: { hang?: boolean } = {}) {
  s = scene();
  const worker = await start('writer', {
    inference: rehearsal([{ turns: [{ text: 'writer got: {{task}}' }] }]),
    exports: { peer_tasks: { accept: true } },
  });
  const stuck = opts.hang
    ? await start('stuck', {
        inference: rehearsal([{ turns: [{ hang: true }] }]),
        exports: { peer_tasks: { accept: true } },
      })
    : undefined;
  const calls = [{ name: 'delegate_task', arguments: { to: worker.url, text: 'Draft a paragraph.' } }];
  if (stuck) calls.push({ name: 'delegate_task', arguments: { to: stuck.url, text: 'Take your time.' } });
  const orch = await start('boss', {
    inference: rehearsal([{ turns: [{ tool_calls: calls }, { text: 'done: {{tool_results}}' }] }]),
    capabilities: { network: { allow: [new URL(worker.url).host, ...(stuck ? [new URL(stuck.url).host] : [])] } },
  });
  const edge = { names: ['writer'], urls: [worker.url] };
  return { worker, stuck, orch, edge };
}

describe('breakpoints', () => {
  it('pause a task before its turn with the message it is about to send; the edited message is what the model reads', async () => {
    s = scene();
    const session = await start('solo', { inference: rehearsal([]) });
    session.setBreakpoints({ ...none, turn: true });
    const id = await send(session, 'original question');
    const hit = await waitFor('the pause', () => lines(session, 'breakpoint_hit', id)[0]);
    expect(hit).toMatchObject({ point: 'turn', turn: 1, text: 'original question', timeout_ms: 60_000 });
    expect(session.peekTask(id)?.status).toMatchObject({
      state: 'TASK_STATE_WORKING',
      message: { parts: [{ text: 'paused at a breakpoint before turn 1' }] },
    });
    // Paused, it is still the session's work in hand: the status names it (busy) though the slot is free.
    expect(session.status()).toMatchObject({ state: 'busy', running: id, queued: 0 });

    session.resumeBreakpoint(id, 'continue', 'edited question');
    await waitFor('the answer', () => stateOf(session, id) === 'TASK_STATE_COMPLETED');
    expect(answerOf(session, id)).toBe('Acknowledged: “edited question”');
    expect(lines(session, 'breakpoint_resumed', id)[0]).toMatchObject({ action: 'continue', edited: true, by: 'user' });
    expect(() => session.resumeBreakpoint(id, 'continue')).toThrow(/not paused/);
  });

  it('a paused task holds no running slot: another task runs to its end meanwhile, and the paused one comes back first', async () => {
    s = scene();
    const session = await start('solo', {
      inference: rehearsal([]),
      lifecycle: { task_acceptance: 'queue', queue_depth: 4 },
    });
    session.setBreakpoints({ ...none, turn: true });
    const paused = await send(session, 'wait for me');
    await waitFor('the pause', () => lines(session, 'breakpoint_hit', paused)[0]);
    // Cleared: the task paused already stays paused; new tasks run through.
    session.setBreakpoints(undefined);
    const other = await rpc(session.url, 'SendMessage', { message: userMessage('quick one') });
    expect(other.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(stateOf(session, paused)).toBe('TASK_STATE_WORKING');
    expect(session.status()).toMatchObject({ state: 'busy', running: paused, queued: 0 });
    session.resumeBreakpoint(paused, 'continue');
    await waitFor('the paused task ends', () => stateOf(session, paused) === 'TASK_STATE_COMPLETED');
    expect(answerOf(session, paused)).toBe('Acknowledged: “wait for me”');
  });

  it('pause before a delegation crosses an edge; the worker gets the edited message', async () => {
    const { worker, orch, edge } = await formation();
    orch.setBreakpoints({ ...none, edges: [edge] });
    const id = await send(orch, 'write it');
    const hit = await waitFor('the pause', () => lines(orch, 'breakpoint_hit', id)[0]);
    expect(hit).toMatchObject({
      point: 'edge',
      to: worker.url,
      text: 'Draft a paragraph.',
      call_id: expect.any(String),
    });
    // Nothing was sent yet.
    expect(worker.listTasks()).toHaveLength(0);
    expect(lines(orch, 'delegation_start', id)).toHaveLength(0);

    orch.resumeBreakpoint(id, 'continue', 'Draft a haiku instead.');
    await waitFor('the answer', () => stateOf(orch, id) === 'TASK_STATE_COMPLETED');
    expect(lines(worker, 'a2a_task_received')[0]).toMatchObject({ text: 'Draft a haiku instead.' });
    expect(answerOf(orch, id)).toContain('writer got: Draft a haiku instead.');
  });

  it('step lets the delegation go and pauses again before the next turn', async () => {
    const { orch, edge } = await formation();
    orch.setBreakpoints({ ...none, edges: [edge] });
    const id = await send(orch, 'write it');
    await waitFor('the edge pause', () => lines(orch, 'breakpoint_hit', id)[0]);
    orch.resumeBreakpoint(id, 'step');
    const second = await waitFor('the turn pause', () => lines(orch, 'breakpoint_hit', id)[1]);
    expect(second).toMatchObject({ point: 'turn', turn: 2 });
    // The text the model reads next is the worker's answer.
    expect(second.text).toContain('writer got: Draft a paragraph.');
    expect(lines(orch, 'tool_result', id)).toHaveLength(1);
    orch.resumeBreakpoint(id, 'continue');
    await waitFor('the answer', () => stateOf(orch, id) === 'TASK_STATE_COMPLETED');
    // Stepping is once: no third pause.
    expect(lines(orch, 'breakpoint_hit', id)).toHaveLength(2);
    expect(lines(orch, 'breakpoint_resumed', id).map((l) => l.action)).toEqual(['step', 'continue']);
  });

  it('cancel while paused cancels the task as usual, with what its other delegation left running as residue', async () => {
    const { orch, edge, stuck } = await formation({ hang: true });
    orch.setBreakpoints({ ...none, edges: [edge] });
    const id = await send(orch, 'write it');
    await waitFor('the pause', () => lines(orch, 'breakpoint_hit', id)[0]);
    await waitFor('the other delegation reached its worker', () => stuck!.listTasks().length === 1);
    const canceled = await orch.cancelTask(id);
    expect(canceled.task.status.state).toBe('TASK_STATE_CANCELED');
    const residue = canceled.task.artifacts?.find((a) => a.artifactId === 'residue')?.parts.map((p) => p.data);
    expect(residue).toEqual([expect.objectContaining({ kind: 'delegation', capsule: 'stuck' })]);
    expect(canceled.residue).toEqual(residue);
    expect(lines(orch, 'breakpoint_resumed', id)[0]).toMatchObject({ action: 'cancel', by: 'user' });
    expect(lines(orch, 'task_canceled', id)[0].interrupted).toMatch(/breakpoint/);
    await waitFor('the peer task canceled', () => stateOf(stuck!, stuck!.listTasks()[0].id) === 'TASK_STATE_CANCELED');
  });

  it('the message a pause shows is masked like every trace line', async () => {
    s = scene();
    const session = await startSession({
      manifestPath: s.manifest('solo', { inference: rehearsal([]) }),
      env: s.env,
      port: 0,
      secrets: ['sk-live-0123456789'],
    });
    s.sessions.push(session);
    session.setBreakpoints({ ...none, turn: true });
    const id = await send(session, 'use sk-live-0123456789 to call it');
    const hit = await waitFor('the pause', () => lines(session, 'breakpoint_hit', id)[0]);
    expect(hit.text).not.toContain('sk-live-0123456789');
    session.resumeBreakpoint(id, 'continue');
    await waitFor('the answer', () => stateOf(session, id) === 'TASK_STATE_COMPLETED');
  });

  it('a forgotten pause continues by itself after its timeout, and says so', async () => {
    s = scene();
    const session = await start('solo', { inference: rehearsal([]) });
    session.setBreakpoints({ ...none, turn: true, timeoutMs: 30 });
    const id = await send(session, 'nobody is watching');
    await waitFor('the answer', () => stateOf(session, id) === 'TASK_STATE_COMPLETED');
    expect(lines(session, 'breakpoint_resumed', id)[0]).toMatchObject({
      action: 'continue',
      edited: false,
      by: 'timeout',
    });
    expect(answerOf(session, id)).toBe('Acknowledged: “nobody is watching”');
  });
});
