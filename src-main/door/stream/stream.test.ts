import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ServiceParameters, withA2AExtensions, type Client } from '@a2a-js/sdk/client';
import { FRAMES_EXTENSION_URI } from '../../../src-shared/a2a';
import { startTestSession, waitFor, type TestSession } from '../../runtime/testing';
import { configureStreams, openStreams } from './live';
import { readSse } from './sse-reader';

// SendStreamingMessage and SubscribeToTask against a running door, with the @a2a-js/sdk 1.3.0
// client and with raw HTTP where the wire itself is the point.

let ts: TestSession;
let client: Client;

beforeAll(async () => {
  ts = await startTestSession({
    inference: {
      rehearsal: {
        replies: [
          { when: 'hang', turns: [{ hang: true }] },
          {
            when: 'tools',
            turns: [
              { text: 'Looking it up.', tool_calls: [{ name: 'lookup', arguments: { q: 'x' } }], delay_ms: 20 },
              { text: 'Done looking.', delay_ms: 20 },
            ],
          },
          { when: 'slow', turns: [{ text: 'slow answer', delay_ms: 800 }] },
          {
            when: 'paint',
            turns: [
              { tool_calls: [{ name: 'request_input', arguments: { question: 'Which color?' } }] },
              { text: 'Painted green.' },
            ],
          },
        ],
      },
    },
  });
  client = await new ClientFactory().createFromUrl(ts.session.url);
});
afterAll(() => ts.dispose());

let n = 0;
const sdkMessage = (text: string) => ({
  messageId: `m-${++n}`,
  contextId: '',
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const sdkSend = (text: string) => ({
  tenant: '',
  message: sdkMessage(text),
  configuration: {
    acceptedOutputModes: [],
    historyLength: undefined,
    returnImmediately: false,
    taskPushNotificationConfig: undefined,
  },
  metadata: undefined,
});
const wireMessage = (text: string) => ({ message: { messageId: `w-${++n}`, role: 'ROLE_USER', parts: [{ text }] } });

/** A raw JSON-RPC call; the whole body when it is JSON, the parsed events when it is SSE. */
async function raw(method: string, params: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const res = await fetch(ts.session.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'r1', method, params }),
    signal,
  });
  return res;
}
async function events(res: Response) {
  const out: any[] = [];
  for await (const e of readSse(res.body as any)) out.push(JSON.parse(e.data));
  return out;
}
const kind = (e: any) => e.payload.$case as string;

describe('streaming door', () => {
  it('the card says streaming and push are on, and lists the frames extension', async () => {
    const card = (await (await fetch(`${ts.session.url}/.well-known/agent-card.json`)).json()) as any;
    expect(card.capabilities.streaming).toBe(true);
    expect(card.capabilities.pushNotifications).toBe(true);
    expect(card.capabilities.extensions.map((e: any) => e.uri)).toContain(FRAMES_EXTENSION_URI);
  });

  it('sendMessageStream: the task first, then updates in order, closing at the terminal state', async () => {
    const got: any[] = [];
    for await (const e of client.sendMessageStream(sdkSend('tools please'))) got.push(e);
    expect(kind(got[0])).toBe('task');
    const taskId = got[0].payload.value.id;
    expect(got[0].payload.value.status.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    const states = got.filter((e) => kind(e) === 'statusUpdate').map((e) => e.payload.value.status.state);
    expect(states[0]).toBe(TaskState.TASK_STATE_WORKING);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const artifactAt = got.findIndex((e) => kind(e) === 'artifactUpdate');
    expect(artifactAt).toBeGreaterThan(0);
    expect(artifactAt).toBeLessThan(got.length - 1);
    expect(got.every((e) => kind(e) === 'task' || e.payload.value.taskId === taskId)).toBe(true);
    // no frames without the extension
    expect(got.some((e) => e.payload.value.metadata?.[FRAMES_EXTENSION_URI])).toBe(false);
    expect(ts.session.taskState(taskId)).toBe('TASK_STATE_COMPLETED');
  });

  it('frames: the A2A-Extensions header adds text and tool frames and is echoed', async () => {
    const res = await raw('SendStreamingMessage', wireMessage('tools with frames'), {
      'a2a-extensions': `urn:other, ${FRAMES_EXTENSION_URI}`,
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('a2a-extensions')).toBe(FRAMES_EXTENSION_URI);
    const all = await events(res);
    expect(all.every((e) => e.jsonrpc === '2.0' && e.id === 'r1')).toBe(true);
    const frames = all.map((e) => e.result.statusUpdate?.metadata?.[FRAMES_EXTENSION_URI]).filter(Boolean);
    expect(frames.map((f) => f.kind)).toEqual(['text', 'tool_call', 'tool_result', 'text']);
    expect(frames[0]).toMatchObject({ kind: 'text', turn: 1, text: 'Looking it up.' });
    expect(frames[1]).toMatchObject({ kind: 'tool_call', name: 'lookup', arguments: { q: 'x' } });
    expect(frames[2]).toMatchObject({ kind: 'tool_result', name: 'lookup', ok: false });
    expect(all.at(-1).result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');

    // the SDK client asks for it the same way
    const got: any[] = [];
    const options = {
      serviceParameters: ServiceParameters.createFrom(undefined, withA2AExtensions(FRAMES_EXTENSION_URI)),
    };
    for await (const e of client.sendMessageStream(sdkSend('tools via sdk'), options)) got.push(e);
    expect(got.filter((e) => e.payload.value.metadata?.[FRAMES_EXTENSION_URI]).length).toBe(4);
  });

  it('subscribeToTask: several subscribers each get every event in the same order', async () => {
    const sent = await ts.rpc('SendMessage', {
      ...wireMessage('slow one'),
      configuration: { returnImmediately: true },
    });
    const id = sent.result.task.id;
    const s = ts.session;
    await waitFor(s, () => s.taskState(id) === 'TASK_STATE_WORKING');
    const collect = async () => {
      const got: any[] = [];
      for await (const e of client.resubscribeTask({ tenant: '', id })) got.push(e);
      return got;
    };
    const [a, b] = await Promise.all([collect(), collect()]);
    expect(kind(a[0])).toBe('task');
    expect(a[0].payload.value.status.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(a.map(kind)).toEqual(['task', 'artifactUpdate', 'statusUpdate']);
    expect(b.map((e) => JSON.stringify(e))).toEqual(a.map((e) => JSON.stringify(e)));
    expect(a.at(-1).payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('subscribeToTask on a task waiting for input stays open through the answer to COMPLETED', async () => {
    const asked = await ts.rpc('SendMessage', wireMessage('paint the fence'));
    const task = asked.result.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const got: any[] = [];
    let opened!: () => void;
    const first = new Promise<void>((r) => (opened = r));
    const subscribed = (async () => {
      for await (const e of client.resubscribeTask({ tenant: '', id: task.id })) {
        got.push(e);
        opened();
      }
    })();
    await first;
    expect(kind(got[0])).toBe('task');
    expect(got[0].payload.value.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const answer = {
      message: {
        messageId: `w-${++n}`,
        role: 'ROLE_USER',
        taskId: task.id,
        contextId: task.contextId,
        parts: [{ text: 'green' }],
      },
    };
    expect((await ts.rpc('SendMessage', answer)).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    await subscribed;
    const states = got.filter((e) => kind(e) === 'statusUpdate').map((e) => e.payload.value.status.state);
    expect(states[0]).toBe(TaskState.TASK_STATE_WORKING);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(got.some((e) => kind(e) === 'artifactUpdate')).toBe(true);

    // SendStreamingMessage still ends at the question: the answer is a new call
    const streamed = await events(await raw('SendStreamingMessage', wireMessage('paint the shed')));
    expect(streamed.at(-1).result.statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await ts.rpc('CancelTask', { id: streamed[0].result.task.id });
  });

  it('errors known before the stream opens are plain JSON-RPC errors', async () => {
    const done = await ts.rpc('SendMessage', wireMessage('quick'));
    const finished = await raw('SubscribeToTask', { id: done.result.task.id });
    expect(finished.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await finished.json()) as any).error).toMatchObject({
      code: -32004,
      data: [{ reason: 'UNSUPPORTED_OPERATION' }],
    });
    const unknown = (await (await raw('SubscribeToTask', { id: 'tsk_nope' })).json()) as any;
    expect(unknown.error.code).toBe(-32001);
    const bad = await raw('SendStreamingMessage', { message: { messageId: 'x', role: 'ROLE_USER', parts: [] } });
    expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await bad.json()) as any).error.code).toBe(-32602);
    // and through the SDK
    await expect(async () => {
      for await (const _e of client.resubscribeTask({ tenant: '', id: done.result.task.id }));
    }).rejects.toThrow();
  });

  it('a client that disconnects mid-stream costs nothing and changes nothing', async () => {
    const before = openStreams(ts.session);
    const abort = new AbortController();
    const res = await raw('SendStreamingMessage', wireMessage('hang until canceled'), {}, abort.signal);
    const reader = readSse(res.body as any);
    const first = JSON.parse((await reader.next()).value!.data);
    const id = first.result.task.id;
    expect(openStreams(ts.session)).toBe(before + 1);
    abort.abort();
    await waitForCondition(() => openStreams(ts.session) === before);
    const s = ts.session;
    await waitFor(s, () => s.taskState(id) === 'TASK_STATE_WORKING');
    expect(s.taskState(id)).toBe('TASK_STATE_WORKING');
    const canceled = await ts.rpc('CancelTask', { id });
    expect(canceled.result.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('keepalive comments while quiet, and the life cap closes with the real state', async () => {
    configureStreams(ts.session, { keepaliveMs: 25, maxLifeMs: 250 });
    try {
      const res = await raw('SendStreamingMessage', wireMessage('hang for the cap'));
      const text = await res.text();
      const parts = text.split('\n\n').filter(Boolean);
      expect(parts.filter((p) => p === ': keepalive').length).toBeGreaterThanOrEqual(2);
      const data = parts.filter((p) => p.startsWith('data: ')).map((p) => JSON.parse(p.slice(6)));
      const last = data.at(-1).result.statusUpdate;
      expect(last.status.state).toBe('TASK_STATE_WORKING');
      expect(last.final).toBeUndefined();
      expect(ts.session.taskState(last.taskId)).toBe('TASK_STATE_WORKING');
      await ts.rpc('CancelTask', { id: last.taskId });
    } finally {
      configureStreams(ts.session, { keepaliveMs: 15_000, maxLifeMs: 30 * 60_000 });
    }
  });
});

async function waitForCondition(check: () => boolean, timeoutMs = 3000) {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 10));
  }
}
