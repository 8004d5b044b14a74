import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manifestSchema, type Manifest } from '../../../src-shared/manifest';
import type { InFlightWork, TaskRun } from '../../runtime';
import { createProcessExecutor, KILLED_NOTE, type ProcessExecutor } from '../../runtime/process-executor';

// The process transport on a fake harness CLI: prompt in, answer out, session resume, and the
// cancel protocol (interrupt, grace, kill) exactly as docs/door.md describes it.

const FAKE = join(__dirname, 'fixtures', 'fake-harness.js');

function manifestWith(harness: Record<string, unknown>): Manifest {
  return manifestSchema.parse({
    name: 'harnessed',
    version: '0.1.0',
    inference: {
      transport: 'process',
      driver: { artifact: 'capsule/driver-process' },
      harness: { command: process.execPath, ...harness },
    },
  });
}

type Ev = { event_type: string } & Record<string, unknown>;

/** A task as the runtime would hand it over, with a cancel that works like the runtime's. */
function fakeTask(text: string, contextId = 'ctx-1', conversation: TaskRun['conversation'] = []) {
  const controller = new AbortController();
  const events: Ev[] = [];
  const works = new Set<InFlightWork>();
  const watchers: { pred: (e: Ev) => boolean; resolve: () => void }[] = [];
  const run: TaskRun = {
    sessionId: 'ses_test',
    taskId: `tsk_${Math.random().toString(36).slice(2)}`,
    contextId,
    text,
    message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text }] } as TaskRun['message'],
    conversation,
    signal: controller.signal,
    get aborted() {
      return controller.signal.aborted;
    },
    usage: { turns: 0, tokensIn: 0, tokensOut: 0 },
    trace(e) {
      events.push(e);
      for (const w of watchers.filter((x) => x.pred(e))) w.resolve();
    },
    track(w) {
      works.add(w);
      return () => void works.delete(w);
    },
    setWaiting() {},
    requestInput: () => Promise.reject(new Error('no input here')),
    guard: (work) => work(),
  };
  return {
    run,
    events,
    until: (pred: (e: Ev) => boolean) =>
      new Promise<void>((resolve) => (events.some(pred) ? resolve() : watchers.push({ pred, resolve }))),
    /** Aborts, then waits for the tracked work to stop, as CancelTask does; returns the status note. */
    async cancel() {
      const list = [...works];
      controller.abort();
      await Promise.all(list.map((w) => w.cancel()));
      return list.map((w) => w.canceledStatus?.()).find(Boolean);
    },
  };
}

const working = (e: Ev) => e.event_type === 'harness_output' && String(e.text).includes('working');
let executor: ProcessExecutor | undefined;
afterEach(() => executor?.dispose?.());

describe('process executor', () => {
  it('feeds the prompt on stdin, answers from stdout, and resumes the same harness session next time', async () => {
    executor = createProcessExecutor({
      manifest: manifestWith({ args: [FAKE], prompt: 'stdin', resume_args: ['--resume', '{session}'] }),
      secrets: [],
    });
    const conversation: TaskRun['conversation'] = [];
    const first = fakeTask('echo hello there', 'ctx-a', conversation);
    expect(await executor.run(first.run)).toEqual({ ok: true, answer: 'echo: hello there' });
    const session = executor.sessionOf('ctx-a');
    expect(session).toMatch(/^hs_/);
    expect(first.events.map((e) => e.event_type)).toEqual(
      expect.arrayContaining(['harness_start', 'harness_output', 'harness_exit']),
    );
    expect(first.events.find((e) => e.event_type === 'harness_exit')).toMatchObject({
      cause: 'exited',
      code: 0,
      killed: false,
    });

    const second = fakeTask('echo again', 'ctx-a', conversation);
    expect(await executor.run(second.run)).toEqual({ ok: true, answer: `echo: again\nresumed: ${session}` });
    expect(second.events.find((e) => e.event_type === 'harness_start')).toMatchObject({ resume: session });
    expect(executor.sessionOf('ctx-a')).toBe(session);
    expect(conversation.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);

    // Another context starts its own harness session.
    await executor.run(fakeTask('echo elsewhere', 'ctx-b').run);
    expect(executor.sessionOf('ctx-b')).not.toBe(session);
  });

  it('passes the prompt as an argument where args say {prompt}', async () => {
    executor = createProcessExecutor({
      manifest: manifestWith({ args: [FAKE, '--prompt', '{prompt}'], prompt: 'arg' }),
      secrets: [],
    });
    expect(await executor.run(fakeTask('echo as an argument').run)).toEqual({
      ok: true,
      answer: 'echo: as an argument',
    });
  });

  it('turns a non-zero exit into an inference error naming the harness, code and stderr', async () => {
    executor = createProcessExecutor({ manifest: manifestWith({ args: [FAKE] }), secrets: [] });
    const outcome = await executor.run(fakeTask('fail').run);
    expect(outcome).toEqual({
      ok: false,
      cause: 'inference_error',
      message: `harness ${process.execPath} exited with code 3: boom`,
    });
  });

  it('fails with a clear message when the harness cannot start', async () => {
    executor = createProcessExecutor({ manifest: manifestWith({ command: '/nonexistent/harness-cli' }), secrets: [] });
    const outcome = await executor.run(fakeTask('echo x').run);
    expect(outcome).toMatchObject({
      ok: false,
      cause: 'inference_error',
      message: expect.stringContaining('cannot start /nonexistent/harness-cli'),
    });
  });

  it('cancel: SIGINT honoured within grace, nothing killed, and the session is kept', async () => {
    executor = createProcessExecutor({
      manifest: manifestWith({
        args: [FAKE],
        interrupt: 'sigint',
        grace_ms: 10_000,
        resume_args: ['--resume', '{session}'],
      }),
      secrets: [],
    });
    const t = fakeTask('hang', 'ctx-c');
    const outcome = executor.run(t.run);
    await t.until(working);
    const t0 = Date.now();
    expect(await t.cancel()).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(2_000);
    await outcome;
    expect(
      t.events.filter((e) => e.event_type.startsWith('harness_') && e.event_type !== 'harness_output'),
    ).toMatchObject([
      { event_type: 'harness_start' },
      { event_type: 'harness_interrupt', interrupt: 'sigint' },
      { event_type: 'harness_exit', cause: 'canceled', code: 130, signal: null, killed: false },
    ]);
    const session = executor.sessionOf('ctx-c');
    expect(session).toBeTruthy();
    const next = fakeTask('echo after cancel', 'ctx-c');
    expect(await executor.run(next.run)).toEqual({ ok: true, answer: `echo: after cancel\nresumed: ${session}` });
  });

  it('cancel: interrupt bytes on stdin are honoured', async () => {
    executor = createProcessExecutor({
      manifest: manifestWith({ args: [FAKE], interrupt: { stdin: '\u0003' }, grace_ms: 10_000 }),
      secrets: [],
    });
    const t = fakeTask('hang');
    const outcome = executor.run(t.run);
    await t.until(working);
    expect(await t.cancel()).toBeUndefined();
    await outcome;
    expect(t.events.find((e) => e.event_type === 'harness_interrupt')).toMatchObject({
      interrupt: 'stdin',
      bytes: '\u0003',
      grace_ms: 10_000,
    });
    expect(t.events.find((e) => e.event_type === 'harness_exit')).toMatchObject({
      cause: 'canceled',
      code: 130,
      killed: false,
    });
  });

  it('cancel: an ignored interrupt is followed by a kill once grace_ms has passed', async () => {
    executor = createProcessExecutor({
      manifest: manifestWith({ args: [FAKE], interrupt: 'sigint', grace_ms: 300 }),
      secrets: [],
    });
    const t = fakeTask('stubborn');
    const outcome = executor.run(t.run);
    await t.until(working);
    const t0 = Date.now();
    expect(await t.cancel()).toBe(KILLED_NOTE);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    await outcome;
    expect(t.events.find((e) => e.event_type === 'harness_exit')).toMatchObject({
      cause: 'canceled',
      code: null,
      signal: 'SIGKILL',
      killed: true,
    });
  });

  it('cancel: a harness with no graceful interrupt is killed at once', async () => {
    executor = createProcessExecutor({
      manifest: manifestWith({ args: [FAKE], interrupt: 'none', grace_ms: 10_000 }),
      secrets: [],
    });
    const t = fakeTask('hang');
    const outcome = executor.run(t.run);
    await t.until(working);
    const t0 = Date.now();
    expect(await t.cancel()).toBe(KILLED_NOTE);
    expect(Date.now() - t0).toBeLessThan(500);
    await outcome;
    expect(t.events.find((e) => e.event_type === 'harness_interrupt')).toMatchObject({ interrupt: 'none' });
    expect(t.events.find((e) => e.event_type === 'harness_exit')).toMatchObject({
      cause: 'canceled',
      signal: 'SIGKILL',
      killed: true,
    });
  });
});
