import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { startTestSession, waitFor, type TestSession } from '../runtime/testing';
import { traceLines } from '../runtime/trace-lines';

// Scenarios a rehearsal script plays, read back with the @a2a-js/sdk 1.3.0 client through a real
// door: artifacts of every part kind, several artifacts and chunks of one while streaming, a
// Message instead of a Task, and replies chosen by message id prefix and by metadata.

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');

let ts: TestSession;
let client: Client;
beforeAll(async () => {
  ts = await startTestSession({
    inference: {
      rehearsal: {
        replies: [
          {
            when: 'files',
            turns: [
              {
                text: 'Here are your files.',
                artifacts: [
                  {
                    id: 'report',
                    name: 'report',
                    description: 'every part kind',
                    parts: [
                      { text: '# Report', media_type: 'text/markdown' },
                      { data: { rows: 2, ok: true } },
                      { bytes: PNG, media_type: 'image/png', filename: 'logo.png' },
                      { url: 'https://example.com/report.pdf', media_type: 'application/pdf', filename: 'report.pdf' },
                    ],
                  },
                  { id: 'second', name: 'second', parts: [{ text: 'another artifact' }] },
                ],
              },
            ],
          },
          {
            when: 'chunks',
            turns: [
              {
                text: 'streamed',
                artifacts: [
                  { id: 'log', name: 'log', parts: [{ text: 'line 1' }], last_chunk: false },
                  { id: 'log', parts: [{ text: 'line 2' }], append: true, last_chunk: false, delay_ms: 10 },
                  { id: 'log', parts: [{ text: 'line 3' }], append: true, delay_ms: 10 },
                ],
              },
            ],
          },
          {
            when: 'wait',
            turns: [
              {
                text: 'late artifacts',
                artifacts: [
                  { id: 'late', parts: [{ text: 'one' }], delay_ms: 1500 },
                  { id: 'late2', parts: [{ text: 'two' }], delay_ms: 50 },
                ],
              },
            ],
          },
          {
            when: 'direct',
            turns: [{ text: 'A direct reply.', answer_as: 'message', artifacts: [{ parts: [{ data: { n: 1 } }] }] }],
          },
          { message_id: 'tck-', turns: [{ text: 'chosen by message id' }] },
          { metadata: { scenario: 'gold', level: 2 }, turns: [{ text: 'chosen by metadata' }] },
        ],
      },
    },
  });
  client = await new ClientFactory().createFromUrl(ts.session.url);
});
afterAll(() => ts.dispose());

let n = 0;
const request = (text: string, opts: { messageId?: string; metadata?: Record<string, unknown> } = {}) => ({
  tenant: '',
  message: {
    messageId: opts.messageId ?? `m-${++n}`,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: opts.metadata,
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: {
    acceptedOutputModes: [],
    historyLength: undefined,
    returnImmediately: false,
    taskPushNotificationConfig: undefined,
  },
  metadata: undefined,
});

const textOf = (task: any) => task.artifacts.find((a: any) => a.artifactId === 'response').parts[0].content.value;

describe('rehearsal scenarios through the door (@a2a-js/sdk 1.3.0)', () => {
  it('answers with artifacts of every part kind, with media types and file names (blocking)', async () => {
    const task = (await client.sendMessage(request('send the files'))) as any;
    expect(task.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const report = task.artifacts.find((a: any) => a.artifactId === 'report');
    expect(report).toMatchObject({ name: 'report', description: 'every part kind' });
    const [text, data, file, url] = report.parts;
    expect(text).toMatchObject({ content: { $case: 'text', value: '# Report' }, mediaType: 'text/markdown' });
    expect(data).toMatchObject({
      content: { $case: 'data', value: { rows: 2, ok: true } },
      mediaType: 'application/json',
    });
    expect(file.content.$case).toBe('raw');
    expect(Buffer.from(file.content.value).toString('base64')).toBe(PNG);
    expect(file).toMatchObject({ mediaType: 'image/png', filename: 'logo.png' });
    expect(url).toMatchObject({
      content: { $case: 'url', value: 'https://example.com/report.pdf' },
      mediaType: 'application/pdf',
      filename: 'report.pdf',
    });
    expect(task.artifacts.map((a: any) => a.artifactId)).toEqual(['report', 'second', 'response']);
    expect(textOf(task)).toBe('Here are your files.');
  });

  it('streams one artifact update per artifact and chunk, with append and lastChunk, before the final state', async () => {
    const events: any[] = [];
    for await (const ev of client.sendMessageStream(request('stream chunks'))) events.push(ev.payload);
    const updates = events.filter((e) => e.$case === 'artifactUpdate').map((e) => e.value);
    expect(
      updates.map((u) => [u.artifact.artifactId, u.artifact.parts[0].content.value, u.append, u.lastChunk]),
    ).toEqual([
      ['log', 'line 1', false, false],
      ['log', 'line 2', true, false],
      ['log', 'line 3', true, true],
      ['response', 'streamed', false, true],
    ]);
    const last = events[events.length - 1];
    expect(last.$case).toBe('statusUpdate');
    expect(last.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The task as GetTask reads it holds the chunks joined into one artifact.
    const task = (await client.getTask({ tenant: '', id: updates[0].taskId, historyLength: undefined })) as any;
    expect(task.artifacts[0].parts.map((p: any) => p.content.value)).toEqual(['line 1', 'line 2', 'line 3']);
  });

  it('SubscribeToTask carries the artifact updates of a task already running', async () => {
    const submitted = (await client.sendMessage({
      ...request('wait for it'),
      configuration: { ...request('').configuration, returnImmediately: true },
    })) as any;
    const s = ts.session;
    await waitFor(s, () => s.taskState(submitted.id) === 'TASK_STATE_WORKING');
    const events: any[] = [];
    for await (const ev of client.resubscribeTask({ tenant: '', id: submitted.id })) events.push(ev.payload);
    expect(events[0].$case).toBe('task');
    const ids = events.filter((e) => e.$case === 'artifactUpdate').map((e) => e.value.artifact.artifactId);
    expect(ids).toEqual(['late', 'late2', 'response']);
  });

  it('answers a blocking SendMessage with a Message carrying the text and the artifact parts', async () => {
    const reply = (await client.sendMessage(request('a direct answer please'))) as any;
    expect(reply.messageId).toMatch(/^msg_/);
    expect(reply.role).toBe(Role.ROLE_AGENT);
    expect(reply.taskId).toBe('');
    expect(reply.parts.map((p: any) => p.content)).toEqual([
      { $case: 'text', value: 'A direct reply.' },
      { $case: 'data', value: { n: 1 } },
    ]);
    // The raw wire carries `message`, not `task`.
    const raw = await ts.rpc('SendMessage', {
      message: { messageId: 'raw-1', role: 'ROLE_USER', parts: [{ text: 'direct' }] },
    });
    expect(Object.keys(raw.result)).toEqual(['message']);
    expect(raw.result.message.contextId).toBeTruthy();
  });

  it('answers SendStreamingMessage with that Message alone when the script says so', async () => {
    const events: any[] = [];
    for await (const ev of client.sendMessageStream(request('a direct stream'))) events.push(ev.payload);
    expect(events.map((e) => e.$case)).toEqual(['message']);
    expect(events[0].value.parts[0].content).toEqual({ $case: 'text', value: 'A direct reply.' });
    // A script that answers as a task still streams the task.
    const taskEvents: any[] = [];
    for await (const ev of client.sendMessageStream(request('plain stream'))) taskEvents.push(ev.payload?.$case);
    expect(taskEvents[0]).toBe('task');
  });

  it('chooses replies by message id prefix and by metadata, as well as by text', async () => {
    expect(textOf(await client.sendMessage(request('anything', { messageId: 'tck-0042' })))).toBe(
      'chosen by message id',
    );
    expect(
      textOf(await client.sendMessage(request('anything', { metadata: { scenario: 'gold', level: 2, extra: 'x' } }))),
    ).toBe('chosen by metadata');
    // A partial metadata match or another prefix falls through to the acknowledgement.
    expect(
      textOf(await client.sendMessage(request('plain', { messageId: 'x-tck-1', metadata: { scenario: 'gold' } }))),
    ).toBe('Acknowledged: “plain”');
  });

  it('traces every artifact update', () => {
    const artifacts = traceLines(ts.session).filter((l) => l.event_type === 'artifact');
    expect(artifacts.some((l) => l.artifact_id === 'log' && l.append === true)).toBe(true);
  });
});

describe('a context after a task with artifacts', () => {
  it("continues from the task's answer, not from the first artifact it sent", async () => {
    const ctx = { contextId: 'ctx-artifacts' };
    const first = await ts.rpc('SendMessage', {
      message: { messageId: 'c1', role: 'ROLE_USER', parts: [{ text: 'files' }], ...ctx },
    });
    expect(first.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    await ts.rpc('SendMessage', { message: { messageId: 'c2', role: 'ROLE_USER', parts: [{ text: 'next' }], ...ctx } });
    // The rehearsal driver estimates tokens_in from the conversation it is given (4 characters a token).
    const second = traceLines(ts.session)
      .filter((l) => l.event_type === 'inference')
      .at(-1);
    expect(second?.tokens_in).toBe(Math.ceil(('files' + 'Here are your files.' + 'next').length / 4));
  });
});
