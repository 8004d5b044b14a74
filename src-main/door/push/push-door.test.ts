import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { startTestSession, waitFor, type TestSession } from '../../runtime/testing';
import { startReceiver, type Receiver } from './receiver.fixture';
import { configurePush, existingPushOf } from './registry';
import { PUSH_CONFIGS_FILE } from './store';

// The push-config methods and delivery against a running door, with the @a2a-js/sdk 1.3.0 client
// and a local webhook receiver.

let ts: TestSession;
let client: Client;
let receiver: Receiver;

beforeAll(async () => {
  ts = await startTestSession({ inference: { rehearsal: { replies: [{ when: 'hang', turns: [{ hang: true }] }] } } });
  configurePush(ts.session, { timeoutMs: 2_000, backoffMs: [50, 100] });
  receiver = await startReceiver();
  client = await new ClientFactory().createFromUrl(ts.session.url);
});
afterAll(async () => {
  existingPushOf(ts.session)?.dispose();
  await ts.dispose();
  await receiver.close();
});

let n = 0;
const message = (text: string) => ({ messageId: `p-${++n}`, role: 'ROLE_USER', parts: [{ text }] });
const hangingTask = async () => {
  const r = await ts.rpc('SendMessage', { message: message('hang here'), configuration: { returnImmediately: true } });
  return r.result.task.id as string;
};
const states = (hits: { body: any }[]) =>
  hits.map((h) => h.body.statusUpdate?.status.state ?? (h.body.artifactUpdate ? 'artifact' : '?'));

describe('push notifications through the door', () => {
  it('create/get/list/delete with the SDK client, and every later update POSTed in order', async () => {
    const taskId = await hangingTask();
    const created = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: '',
      taskId,
      url: receiver.url('/sdk'),
      token: 'tok-sdk',
      authentication: { scheme: 'Bearer', credentials: 'cred-sdk' },
    });
    expect(created.id).toMatch(/^psh_/);
    expect(created.taskId).toBe(taskId);
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId, id: created.id });
    expect(got.url).toBe(receiver.url('/sdk'));
    const list = await client.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' });
    expect(list.configs.map((c) => c.id)).toEqual([created.id]);

    await ts.rpc('CancelTask', { id: taskId });
    const hits = await receiver.waitFor('/sdk', 1);
    expect(states(hits)).toEqual(['TASK_STATE_CANCELED']);
    expect((hits[0].body as any).statusUpdate.taskId).toBe(taskId);
    expect(hits[0].headers['x-a2a-notification-token']).toBe('tok-sdk');
    expect(hits[0].headers.authorization).toBe('Bearer cred-sdk');
    expect(hits[0].headers['content-type']).toBe('application/a2a+json');

    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: created.id });
    expect((await ts.rpc('ListTaskPushNotificationConfigs', { taskId })).result).toEqual({
      configs: [],
      nextPageToken: '',
    });
    // deleting again is not an error; getting it is task-not-found
    expect((await ts.rpc('DeleteTaskPushNotificationConfig', { taskId, id: created.id })).result).toEqual({});
    expect((await ts.rpc('GetTaskPushNotificationConfig', { taskId, id: created.id })).error.code).toBe(-32001);

    await existingPushOf(ts.session)!.delivery.idle();
    const trace = readFileSync(ts.session.trace.path, 'utf8');
    expect(trace).toContain('"push_delivered"');
    expect(trace).not.toContain('tok-sdk');
    expect(trace).not.toContain('cred-sdk');
  });

  it('inline config on SendMessage: validated before anything starts, then every update delivered', async () => {
    const before = ts.session.listTasks().length;
    const bad = await ts.rpc('SendMessage', {
      message: message('inline bad'),
      configuration: { taskPushNotificationConfig: { url: 'http://hooks.example.com/x' } },
    });
    expect(bad.error.code).toBe(-32602);
    expect(bad.error.message).toContain('params.configuration.taskPushNotificationConfig.url');
    expect(ts.session.listTasks().length).toBe(before);

    const ok = await ts.rpc('SendMessage', {
      message: message('inline good'),
      configuration: { taskPushNotificationConfig: { url: receiver.url('/inline') } },
    });
    expect(ok.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const hits = await receiver.waitFor('/inline', 4);
    expect(states(hits)).toEqual(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'artifact', 'TASK_STATE_COMPLETED']);

    // the alias spelling works too, on the streaming method
    const res = await fetch(ts.session.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: {
          message: message('inline alias'),
          configuration: { pushNotificationConfig: { url: receiver.url('/alias') } },
        },
      }),
    });
    await res.text();
    expect(states(await receiver.waitFor('/alias', 4)).at(-1)).toBe('TASK_STATE_COMPLETED');
  });

  it('a config created on a finished task gets exactly one final update, to it alone', async () => {
    const done = await ts.rpc('SendMessage', {
      message: message('quick'),
      configuration: { taskPushNotificationConfig: { url: receiver.url('/first') } },
    });
    const taskId = done.result.task.id;
    await receiver.waitFor('/first', 4);
    const created = await ts.rpc('CreateTaskPushNotificationConfig', { taskId, url: receiver.url('/late') });
    expect(created.result.id).toBeTruthy();
    await existingPushOf(ts.session)!.delivery.idle();
    const late = receiver.received.filter((r) => r.path === '/late');
    expect(late).toHaveLength(1);
    expect((late[0].body as any).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(receiver.received.filter((r) => r.path === '/first')).toHaveLength(4);
  });

  it('refuses userinfo, plain http to a remote host, an 11th config and an unknown task', async () => {
    const taskId = await hangingTask();
    const create = (params: Record<string, unknown>) =>
      ts.rpc('CreateTaskPushNotificationConfig', { taskId, ...params });
    const userinfo = await create({ url: 'https://user:pass@hooks.example.com/x' });
    expect(userinfo.error.code).toBe(-32602);
    expect(JSON.stringify(userinfo.error)).not.toContain('pass@');
    expect((await create({ url: 'http://hooks.example.com/x' })).error.code).toBe(-32602);
    for (let i = 0; i < 10; i++)
      expect((await create({ url: `https://hooks.example.com/${i}` })).result.id).toBeTruthy();
    const eleventh = await create({ url: 'https://hooks.example.com/11' });
    expect(eleventh.error.code).toBe(-32602);
    expect(eleventh.error.message).toMatch(/10 push configs/);
    const unknown = await ts.rpc('CreateTaskPushNotificationConfig', {
      taskId: 'tsk_unknown',
      url: 'https://hooks.example.com/x',
    });
    expect(unknown.error.code).toBe(-32001);
    expect((await ts.rpc('ListTaskPushNotificationConfigs', { taskId: 'tsk_unknown' })).error.code).toBe(-32001);
    // the SDK client sees the unknown task as an error too
    await expect(
      client.createTaskPushNotificationConfig({
        tenant: '',
        id: '',
        taskId: 'tsk_unknown',
        url: 'https://hooks.example.com/x',
        token: '',
        authentication: undefined,
      }),
    ).rejects.toThrow();
    // the configs persist in the session's records folder (written off the main thread)
    await existingPushOf(ts.session)!.store.flush();
    const file = join(ts.session.workdir, PUSH_CONFIGS_FILE);
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))[taskId]).toHaveLength(10);
    // drop the unreachable example hosts before the task ends
    for (const c of (await ts.rpc('ListTaskPushNotificationConfigs', { taskId })).result.configs) {
      await ts.rpc('DeleteTaskPushNotificationConfig', { taskId, id: c.id });
    }
    await ts.rpc('CancelTask', { id: taskId });
    await waitFor(ts.session, () => ts.session.taskState(taskId) === 'TASK_STATE_CANCELED');
  });
});
