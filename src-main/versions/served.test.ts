import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from '../workspace/test-studio';

// "Tasks running on the old version finish on it": a task an outside caller started through the
// gateway before a publish (or a rollback) is still reached by id afterwards — polled, streamed,
// canceled — on the session of the version it started on, while new tasks go to the new version.

let t: TestStudio;
let token: string;
let url: string;

beforeAll(async () => {
  t = await createTestStudio();
  const answer = await t.core.invoke('expose.enable', { capsuleId: 'writer' });
  token = answer.token;
  url = answer.exposure.url;
});
afterAll(() => t.dispose());

async function rpc(method: string, params: unknown): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return res.json();
}

/** Starts a task through the gateway and returns its id without waiting for it. */
async function startTask(text: string): Promise<string> {
  const body = await rpc('SendMessage', {
    message: { messageId: `m${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] },
    configuration: { returnImmediately: true },
  });
  expect(body.result?.task?.id, JSON.stringify(body)).toMatch(/^tsk_/);
  return body.result.task.id;
}

/** The writer's draft turn, saved as a Studio edit (a step of the history). */
const setWriterTurn = (turn: string) => {
  const file = join(t.workspace, 'capsules/writer.yaml');
  const source = readFileSync(file, 'utf8').replace(/- text: ".*"/, turn);
  return t.core.invoke('manifest.write', { id: 'writer', source });
};

/** The stream of SubscribeToTask through the gateway, read to its end. */
async function subscribe(taskId: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'a2a-version': '1.0',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'SubscribeToTask', params: { id: taskId } }),
  });
  return res.text();
}

describe('a task running on the published version when another is published', () => {
  it('is polled, streamed and canceled on the version it started on; new tasks get the new version', async () => {
    await setWriterTurn('- text: "Tides v1."\n            delay_ms: 1500');
    const v1 = (await t.core.invoke('history.publish', {})).published!.version;
    const slow = await startTask('Write about tides');

    // v2 never answers, so a task on it is still running when v1 comes back.
    await setWriterTurn('- hang: true');
    const v2 = (await t.core.invoke('history.publish', {})).published!.version;
    expect(v2).not.toBe(v1);
    const stuck = await startTask('Write about waves');
    expect((await rpc('GetTask', { id: stuck })).result?.status.state).toBe('TASK_STATE_WORKING');
    expect((await t.core.invoke('expose.card', { capsuleId: 'writer' })).card?.version).toBe(`0.1.0+${v2.slice(0, 7)}`);

    // The v1 task is found, streams to its end and completes with v1's answer.
    const first = await rpc('GetTask', { id: slow });
    expect(first.error, JSON.stringify(first)).toBeUndefined();
    const stream = await subscribe(slow);
    expect(stream).toContain('TASK_STATE_COMPLETED');
    const done = await rpc('GetTask', { id: slow });
    expect(done.result.status.state).toBe('TASK_STATE_COMPLETED');
    expect(JSON.stringify(done.result.artifacts)).toContain('Tides v1.');

    // Roll back to v1: the task still running on v2 is canceled there, and stays readable.
    await t.core.invoke('history.publish', { version: v1 });
    const canceled = await rpc('CancelTask', { id: stuck });
    expect(canceled.error, JSON.stringify(canceled)).toBeUndefined();
    expect(canceled.result.status.state).toBe('TASK_STATE_CANCELED');
    expect((await rpc('GetTask', { id: stuck })).result.status.state).toBe('TASK_STATE_CANCELED');
    // The finished v1 task is still answered after both publishes.
    expect((await rpc('GetTask', { id: slow })).result.status.state).toBe('TASK_STATE_COMPLETED');

    // New tasks get the version published now.
    const again = await rpc('SendMessage', {
      message: { messageId: 'm-again', role: 'ROLE_USER', parts: [{ text: 'Once more' }] },
      configuration: { returnImmediately: false },
    });
    expect(JSON.stringify(again.result?.task?.artifacts)).toContain('Tides v1.');

    // A task nobody ran is still not found.
    expect((await rpc('GetTask', { id: 'tsk_nobody' })).error.code).toBe(-32001);
  }, 60_000);
});
