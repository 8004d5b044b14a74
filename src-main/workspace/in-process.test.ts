import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Task } from '../../src-shared/a2a';
import { CoreError } from '../../src-shared/contract';
import { callDoor, DoorError } from '../door';
import { createTestStudio, type TestStudio } from './test-studio';

// The Studio reaches the sessions it hosts in process, through the door's own method table: the
// same request through the door (HTTP, as any A2A client) and through the core gives the same
// answer, errors included, and the core opens no connection to do it.

let studio: TestStudio | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await studio?.dispose();
  studio = undefined;
});

async function started(edit = (t: string) => t): Promise<TestStudio> {
  const s = await createTestStudio();
  const file = join(s.workspace, 'capsules', 'writer.yaml');
  writeFileSync(file, edit(readFileSync(file, 'utf8').replace('delay_ms: 300', 'delay_ms: 0')));
  await s.core.invoke('workspace.open', { dir: s.workspace });
  await s.core.invoke('capsule.launch', { id: 'writer' });
  return s;
}

const urlOf = (s: TestStudio) => s.view()!.capsules.find((c) => c.id === 'writer')!.url!;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

/** What the door answered: its result, or its JSON-RPC error as the core words it (message with the code). */
async function overHttp(url: string, method: string, params: unknown) {
  try {
    return { result: await callDoor(url, method, params) };
  } catch (err) {
    if (!(err instanceof DoorError) || err.kind !== 'rpc') throw err;
    return { error: { code: err.code, message: err.message } };
  }
}
async function viaCore(p: Promise<unknown>) {
  try {
    return { result: await p };
  } catch (err) {
    if (!(err instanceof CoreError)) throw err;
    return { error: { code: (err.details as { rpcCode?: number }).rpcCode, message: err.message } };
  }
}

describe('task commands in process', () => {
  it('answer as the door does, errors included, without a connection', async () => {
    studio = await started();
    const url = urlOf(studio);
    const done = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'draft it' });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const fetches = vi.spyOn(globalThis, 'fetch');
    const core = studio.core;

    // GetTask, with and without history, and for a task nobody has.
    for (const historyLength of [undefined, 0, 1]) {
      const params = { id: done.id, ...(historyLength !== undefined ? { historyLength } : {}) };
      const inProcess = await viaCore(
        core.invoke('task.get', {
          capsuleId: 'writer',
          taskId: done.id,
          ...(historyLength !== undefined ? { historyLength } : {}),
        }),
      );
      fetches.mockClear();
      expect(inProcess).toEqual(await overHttp(url, 'GetTask', params));
    }
    const missing = await viaCore(core.invoke('task.get', { capsuleId: 'writer', taskId: 'tsk_nobody' }));
    expect(missing.error?.code).toBe(-32001);
    expect(missing).toEqual(await overHttp(url, 'GetTask', { id: 'tsk_nobody' }));

    // ListTasks (the Studio lists oldest first, with artifacts).
    const listed = (await overHttp(url, 'ListTasks', { pageSize: 100, includeArtifacts: true })).result as {
      tasks: Task[];
    };
    expect(await core.invoke('task.list', { capsuleId: 'writer' })).toEqual([...listed.tasks].reverse());

    // A reply to a task that has ended: the door's refusal, word for word.
    const reply = await viaCore(
      core.invoke('task.send', { capsuleId: 'writer', taskId: done.id, text: 'more', returnImmediately: true }),
    );
    const message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'more' }], taskId: done.id };
    expect(reply.error?.code).toBe(-32004);
    expect(reply).toEqual(await overHttp(url, 'SendMessage', { message, configuration: { returnImmediately: true } }));

    // CancelTask of a task that has ended: refused with its final state, as the door refuses it.
    fetches.mockClear();
    const cancel = await core.invoke('task.cancel', { capsuleId: 'writer', taskId: done.id });
    expect(fetches).not.toHaveBeenCalled();
    const refusedOverHttp = await overHttp(url, 'CancelTask', { id: done.id });
    expect(cancel.refused).toEqual({ ...refusedOverHttp.error, state: 'TASK_STATE_COMPLETED' });

    // Every call above through the core went without a connection (the door calls used fetch).
    fetches.mockClear();
    await core.invoke('task.send', { capsuleId: 'writer', text: 'again' });
    await core.invoke('task.list', { capsuleId: 'writer' });
    await core.invoke('session.cancelAll', { capsuleId: 'writer' });
    expect(fetches).not.toHaveBeenCalled();
  });

  it('a cancel answers the task as the door then shows it, and the items of its residue artifact', async () => {
    studio = await started((t) =>
      t.replace(
        / {4}replies:[\s\S]*?(?=\n\nlifecycle:)/,
        [
          '    replies:',
          '      - turns:',
          '          - tool_calls:',
          '              - name: shell',
          '                arguments: { command: "sleep 30", detach: true }',
          '          - hang: true',
        ].join('\n') + '\n\ncapabilities:\n  shell:\n    allow: [sleep]',
      ),
    );
    const url = urlOf(studio);
    const shellStarted = studio.next('trace.appended', (t) => t.events.some((e) => e.event_type === 'tool_result'));
    const sent = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'draft', returnImmediately: true });
    await shellStarted;
    const cancel = await studio.core.invoke('task.cancel', { capsuleId: 'writer', taskId: sent.id });
    const { result } = await overHttp(url, 'GetTask', { id: sent.id });
    expect(cancel.task).toEqual(result);
    const artifact = (result as Task).artifacts?.find((a) => a.artifactId === 'residue');
    expect(cancel.residue).toEqual(artifact?.parts.map((p) => p.data));
    expect(cancel.residue).toMatchObject([{ kind: 'detached_shell', command: 'sleep 30' }]);
    // Canceled already: the door's refusal, word for word.
    const again = await studio.core.invoke('task.cancel', { capsuleId: 'writer', taskId: sent.id });
    const door = await overHttp(url, 'CancelTask', { id: sent.id });
    expect(again.refused).toEqual({ ...door.error, state: 'TASK_STATE_CANCELED' });
  });

  it('a method the capsule does not export is refused in process as the door refuses it', async () => {
    studio = await started((t) => t.replace('exports:\n', 'exports:\n  methods: [SendMessage, GetTask]\n'));
    const url = urlOf(studio);
    const cancel = await studio.core.invoke('task.cancel', { capsuleId: 'writer', taskId: 'tsk_x' });
    const door = await overHttp(url, 'CancelTask', { id: 'tsk_x' });
    expect(door.error?.code).toBe(-32601);
    expect(cancel.refused).toEqual(door.error);
    const list = await failure(studio.core.invoke('task.list', { capsuleId: 'writer' }));
    expect((list as CoreError).details).toEqual({ rpcCode: -32601 });
  });
});
