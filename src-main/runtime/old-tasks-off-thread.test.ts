import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../src-shared/a2a';
import { syncCallsOf, type SyncCall } from '../sync-fs.fixture';
import { startTestSession, type TestSession } from './testing';
import { traceLines } from './trace-lines';
import { KEEP_FINISHED } from './tasks';

// Everything the door and the session do with a task memory no longer holds whole (past the newest
// KEEP_FINISHED) happens without a synchronous file read on the main thread: its state comes from
// memory, its messages and answer from trace.jsonl read off the thread (docs/performance.md, main
// thread). And each answers as before.

const watch = vi.hoisted(() => ({ on: false, calls: [] as SyncCall[] }));
vi.mock('node:fs', async (original) => (await import('../sync-fs.fixture')).watchedFs(await original(), watch));

let ts: TestSession;
let old: string;
let n = 0;
const text = (t: string, extra: Partial<Message> = {}) =>
  ({ messageId: `mo-${++n}`, role: 'ROLE_USER', parts: [{ text: t }], ...extra }) as Message;

beforeAll(async () => {
  ts = await startTestSession({ inference: { input_timeout: '10m' } });
  const s = ts.session;
  old = (await s.acceptMessage({ message: text('the first question', { contextId: 'ctx-old' }) }).settled).id;
  // Enough newer tasks, each in its own context, that the first is no longer kept whole.
  for (let i = 0; i < KEEP_FINISHED.tasks + 2; i++) await s.acceptMessage({ message: text(`filler ${i}`) }).settled;
  await s.trace.flush();
  expect(s.peekTask(old)).toBeUndefined();
  expect(s.taskState(old)).toBe('TASK_STATE_COMPLETED');
});
afterAll(() => ts?.dispose());

describe('a task memory no longer holds whole', () => {
  it('is refused by SubscribeToTask as finished, from memory', async () => {
    let answer: any;
    const calls = await syncCallsOf(watch, async () => (answer = await ts.rpc('SubscribeToTask', { id: old })));
    expect(answer.error.code).toBe(-32004);
    expect(answer.error.message).toContain('TASK_STATE_COMPLETED');
    expect(calls).toEqual([]);
  });

  it('has its push configs listed and looked up, from memory', async () => {
    let listed: any;
    let missing: any;
    const calls = await syncCallsOf(watch, async () => {
      listed = await ts.rpc('ListTaskPushNotificationConfigs', { taskId: old });
      missing = await ts.rpc('GetTaskPushNotificationConfig', { taskId: old, id: 'none' });
    });
    expect(listed.result.configs).toEqual([]);
    expect(missing.error.code).toBe(-32001);
    expect(calls).toEqual([]);
  });

  it('refuses a follow-up message naming it, saying its state, from memory', async () => {
    let answer: any;
    const calls = await syncCallsOf(watch, async () => {
      answer = await ts.rpc('SendMessage', { message: text('more', { taskId: old, contextId: 'ctx-old' }) });
    });
    expect(answer.error.code).toBe(-32004);
    expect(answer.error.message).toContain('already TASK_STATE_COMPLETED');
    const wrong = await ts.rpc('SendMessage', { message: text('more', { taskId: old, contextId: 'ctx-other' }) });
    expect(wrong.error.code).toBe(-32602);
    expect(calls).toEqual([]);
  });

  it('is answered by GetTask and ListTasks with its messages and answer, read off the thread', async () => {
    let got: any;
    let listed: any;
    const calls = await syncCallsOf(watch, async () => {
      got = await ts.rpc('GetTask', { id: old });
      listed = await ts.rpc('ListTasks', { contextId: 'ctx-old', includeArtifacts: true });
    });
    expect(got.result.history[0].parts[0].text).toBe('the first question');
    expect(got.result.artifacts[0].artifactId).toBe('response');
    expect(listed.result.tasks).toEqual([got.result]);
    expect(calls).toEqual([]);
  });

  it('gives its context a conversation rebuilt from the records for the next task', async () => {
    const s = ts.session;
    let next: any;
    const calls = await syncCallsOf(watch, async () => {
      next = await s.acceptMessage({ message: text('a second question', { contextId: 'ctx-old' }) }).settled;
    });
    expect(next.status.state).toBe('TASK_STATE_COMPLETED');
    expect(calls).toEqual([]);
    // The model saw the first question and its answer before the second: more than the same
    // question alone in a context of its own.
    const alone = await s.acceptMessage({ message: text('a second question') }).settled;
    const promptOf = (id: string) => traceLines(s).find((e) => e.task_id === id && e.event_type === 'inference')!;
    expect(promptOf(next.id).tokens_in).toBeGreaterThan(promptOf(alone.id).tokens_in);
  });
});
