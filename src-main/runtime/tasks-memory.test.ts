import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src-shared/a2a';
import { rehearsalManifest, startTestSession, waitFor, type TestSession } from './testing';
import { startSession } from '../launch';
import type { Session } from './api';
import { KEEP_FINISHED, MAX_TASK_PAYLOAD } from './tasks';

// Task memory is bounded: the newest finished tasks stay whole, older ones are answered from
// trace.jsonl exactly as they were (after a restart too), a rejected task keeps nothing of its
// message, and one task takes a bounded amount of message text.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

let ts: TestSession | undefined;
let resumed: Session | undefined;
afterEach(async () => {
  await resumed?.end();
  resumed = undefined;
  await ts?.dispose();
  ts = undefined;
});

const SCRIPT = {
  inference: {
    input_timeout: '10m',
    rehearsal: {
      replies: [
        { when: 'fail', turns: [{ error: 'simulated upstream failure' }] },
        { when: 'hang', turns: [{ hang: true }] },
        { when: 'ask', turns: [{ tool_calls: [{ name: 'request_input', arguments: { question: 'Which color?' } }] }] },
      ],
    },
  },
  lifecycle: { task_acceptance: 'single' },
};

let n = 0;
const text = (t: string, extra: Partial<Message> = {}) =>
  ({ messageId: `mm-${++n}`, role: 'ROLE_USER', parts: [{ text: t }], ...extra }) as Message;

/** One task of every shape the registry keeps: plain, data parts, failed, rejected, canceled, input then answer. */
async function everyShape(s: Session): Promise<string[]> {
  const send = (m: Message) => s.acceptMessage({ message: m });
  const ids: string[] = [];
  ids.push((await send(text('plain job', { contextId: 'ctx-shared' })).settled).id);
  const data = {
    messageId: `mm-${++n}`,
    role: 'ROLE_USER',
    parts: [
      { data: { rows: [1, 2, { deep: 'x' }] }, mediaType: 'application/json' },
      { text: 'and text', mediaType: 'text/plain' },
    ],
    metadata: { from: 'test' },
  } as Message;
  ids.push((await send(data).settled).id);
  ids.push((await send(text('fail this')).settled).id);
  const hanging = send(text('hang here'));
  ids.push(hanging.task.id);
  ids.push((await send(text('rejected while busy')).settled).id);
  await s.cancelTask(hanging.task.id);
  const asked = await send(text('ask for paint')).settled;
  expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  await s.acceptMessage({ message: text('green', { taskId: asked.id }) }).settled;
  ids.push(asked.id);
  return ids;
}

describe('task memory', () => {
  it('answers an old task from the records exactly as it answered while new, and after a restart', async () => {
    ts = await startTestSession(SCRIPT);
    const s = ts.session;
    const ids = await everyShape(s);
    const states = ids.map((id) => s.taskState(id));
    expect(states).toEqual([
      'TASK_STATE_COMPLETED',
      'TASK_STATE_COMPLETED',
      'TASK_STATE_FAILED',
      'TASK_STATE_CANCELED',
      'TASK_STATE_REJECTED',
      'TASK_STATE_COMPLETED',
    ]);
    // A rejected task was never kept whole: read back already.
    const before = await Promise.all(ids.map((id) => s.readTask(id)));
    for (let i = 0; i < KEEP_FINISHED.tasks + 4; i++) await s.acceptMessage({ message: text(`filler ${i}`) }).settled;
    expect(await Promise.all(ids.map((id) => s.readTask(id)))).toEqual(before);
    const listed = await ts.rpc('ListTasks', {
      includeArtifacts: true,
      historyLength: 100,
      pageSize: 100,
      statusTimestampAfter: '2000-01-01T00:00:00Z',
    });
    const all = [...listed.result.tasks];
    for (let token = listed.result.nextPageToken; token;) {
      const page = await ts.rpc('ListTasks', {
        includeArtifacts: true,
        historyLength: 100,
        pageSize: 100,
        pageToken: token,
      });
      all.push(...page.result.tasks);
      token = page.result.nextPageToken;
    }
    expect(all).toHaveLength(ids.length + KEEP_FINISHED.tasks + 4);
    for (const [i, id] of ids.entries())
      expect(all.find((t) => t.id === id)).toEqual({ ...before[i], artifacts: before[i]!.artifacts ?? [] });
    const got = await ts.rpc('GetTask', { id: ids[1], historyLength: 100 });
    expect(got.result).toEqual(before[1]);
    expect((await ts.rpc('GetTask', { id: ids[0] })).result.artifacts[0].parts[0].text).toContain('plain job');
    // A follow-up on an old task's context still carries its conversation.
    const next = await s.acceptMessage({ message: text('and now?', { contextId: 'ctx-shared' }) }).settled;
    expect(next.status.state).toBe('TASK_STATE_COMPLETED');

    const { id, workdir } = s;
    await s.end('restart');
    resumed = await startSession({
      manifestPath: join(ts.home, 'murmur.yaml'),
      manifest: rehearsalManifest(SCRIPT),
      env: ts.env,
      port: 0,
      resume: { sessionId: id, workdir },
    });
    // task_end holds the final task: after a restart every task answers exactly as before.
    expect(await Promise.all(ids.map((t) => resumed!.readTask(t)))).toEqual(before);
    expect(resumed.listTasks()).toHaveLength(ids.length + KEEP_FINISHED.tasks + 5);
  });

  it('keeps finished tasks of 512 KiB within a bound', async () => {
    ts = await startTestSession({ lifecycle: { queue_depth: 4 } });
    const s = ts.session;
    const big = 'x'.repeat(512 * 1024);
    await s.acceptMessage({ message: text(big) }).settled;
    const start = heap();
    for (let i = 0; i < 40; i++) await s.acceptMessage({ message: text(`${i} ${big}`) }).settled;
    const grown = heap() - start;
    // Each task holds its text twice (the question, and the acknowledgement quoting it, two bytes a
    // character): 60 MiB if all were kept whole, against a bound of 8 MiB (KEEP_FINISHED.bytes).
    expect(KEEP_FINISHED.bytes).toBe(8 * 1024 * 1024);
    expect(grown).toBeLessThan(12 * 1024 * 1024);
    const old = (await s.readTask(s.listTasks()[1].id))!;
    expect(old.artifacts![0].parts[0].text).toContain(big);
  });

  it('keeps nothing of a rejected task but its status', async () => {
    ts = await startTestSession({ lifecycle: { task_acceptance: 'none' } });
    const s = ts.session;
    const big = 'y'.repeat(512 * 1024);
    await s.acceptMessage({ message: text(big) }).settled;
    const start = heap();
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await s.acceptMessage({ message: text(`${i} ${big}`) }).settled).id);
    expect(heap() - start).toBeLessThan(2 * 1024 * 1024);
    const rejected = (await s.readTask(ids[0], 1))!;
    expect(rejected.status.state).toBe('TASK_STATE_REJECTED');
    expect(rejected.history![0].parts[0].text).toBe(`0 ${big}`);
  });

  it(`refuses a follow-up that takes a task past ${MAX_TASK_PAYLOAD} characters of messages, and the task goes on`, async () => {
    const asks = Array.from({ length: 8 }, () => ({
      tool_calls: [{ name: 'request_input', arguments: { question: 'More?' } }],
    }));
    ts = await startTestSession({
      inference: {
        input_timeout: '10m',
        rehearsal: { replies: [{ when: 'ask', turns: [...asks, { text: 'done' }] }] },
      },
    });
    const s = ts.session;
    const chunk = 'z'.repeat(900_000);
    const first = await ts.rpc('SendMessage', { message: text(`ask ${chunk}`) });
    const id = first.result.task.id;
    let answer;
    for (let i = 0; i < 5; i++) {
      answer = await ts.rpc('SendMessage', { message: text(chunk, { taskId: id }) });
      if (answer.error) break;
      expect(answer.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    }
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toContain('params.message');
    expect(answer.error.message).toContain(`at most ${MAX_TASK_PAYLOAD}`);
    expect(s.taskState(id)).toBe('TASK_STATE_INPUT_REQUIRED');
    const small = await ts.rpc('SendMessage', { message: text('a short one', { taskId: id }) });
    expect(small.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await waitFor(s, () => s.taskState(id) === 'TASK_STATE_INPUT_REQUIRED');
  });
});

describe('conversation memory', () => {
  it('keeps shelved conversations within a bound (failed tasks of 200 KiB, each its own context)', async () => {
    ts = await startTestSession({
      inference: { rehearsal: { replies: [{ turns: [{ error: 'simulated upstream failure' }] }] } },
    });
    const s = ts.session;
    const big = 'f'.repeat(200 * 1024);
    await s.acceptMessage({ message: text(big) }).settled;
    const start = heap();
    for (let i = 0; i < 300; i++) await s.acceptMessage({ message: text(`${i} ${big}`) }).settled;
    // 60 MiB of conversations if all stayed, against 8 MiB of them and 8 MiB of whole tasks.
    expect(heap() - start).toBeLessThan(22 * 1024 * 1024);
  });
});
