import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { startTestSession, waitFor, type TestSession } from '../runtime/testing';

// Interop: the @a2a-js/sdk 1.3.0 client, built from our card, sends, gets, lists and cancels.

let ts: TestSession;
let client: Client;
beforeAll(async () => {
  ts = await startTestSession({ inference: { rehearsal: { replies: [{ when: 'hang', turns: [{ hang: true }] }] } } });
  client = await new ClientFactory().createFromUrl(ts.session.url);
});
afterAll(() => ts.dispose());

const message = (text: string, contextId = '') => ({
  messageId: `m-${text}`,
  contextId,
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const send = (text: string, returnImmediately = false) =>
  client.sendMessage({
    tenant: '',
    message: message(text, 'ctx-sdk'),
    configuration: {
      acceptedOutputModes: [],
      historyLength: undefined,
      returnImmediately,
      taskPushNotificationConfig: undefined,
    },
    metadata: undefined,
  });

describe('@a2a-js/sdk 1.3.0 client against the door', () => {
  it('sends and gets a completed task with the response artifact', async () => {
    const result = (await send('hello sdk')) as any;
    expect(result.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(result.artifacts[0].parts[0].content).toEqual({ $case: 'text', value: 'Acknowledged: “hello sdk”' });
    const got = (await client.getTask({ tenant: '', id: result.id, historyLength: 0 })) as any;
    expect(got.id).toBe(result.id);
    expect(got.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(got.history).toEqual([]);
  });

  it('lists tasks', async () => {
    const list = (await client.listTasks({
      tenant: '',
      contextId: 'ctx-sdk',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 10,
    } as any)) as any;
    expect(list.tasks.length).toBeGreaterThan(0);
    expect(list.tasks.every((t: any) => t.contextId === 'ctx-sdk')).toBe(true);
    expect(list.nextPageToken).toBe('');
  });

  it('cancels a hanging task', async () => {
    const submitted = (await send('hang here', true)) as any;
    expect(submitted.status.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    const s = ts.session;
    await waitFor(s, () => s.taskState(submitted.id) === 'TASK_STATE_WORKING');
    const canceled = (await client.cancelTask({ tenant: '', id: submitted.id, metadata: undefined })) as any;
    expect(canceled.status.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('gets the extended card', async () => {
    const card = (await client.getAgentCard()) as any;
    expect(card.name).toBe('test-worker');
  });
});
