import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from '../runtime/testing';

// History by default: a task answer without historyLength carries all of it (the spec reads an
// unset historyLength as no limit); historyLength 0 leaves the field out, n keeps the last n.

let ts: TestSession;
beforeAll(async () => {
  ts = await startTestSession({
    inference: {
      rehearsal: {
        replies: [
          {
            when: 'paint',
            turns: [{ tool_calls: [{ name: 'request_input', arguments: { question: 'Which color?' } }] }],
          },
        ],
      },
    },
  });
});
afterAll(() => ts.dispose());

const texts = (task: { history?: { parts: { text?: string }[] }[] }) => task.history?.map((m) => m.parts[0].text);

describe('history in task answers', () => {
  it('GetTask, SendMessage, CancelTask and ListTasks return the whole history unless told otherwise', async () => {
    const sent = (
      await ts.rpc('SendMessage', {
        message: { messageId: 'h1', role: 'ROLE_USER', parts: [{ text: 'paint the door' }] },
      })
    ).result.task;
    expect(texts(sent)).toEqual(['paint the door', 'Which color?']);
    const got = (await ts.rpc('GetTask', { id: sent.id })).result;
    expect(texts(got)).toEqual(['paint the door', 'Which color?']);
    expect((await ts.rpc('GetTask', { id: sent.id, historyLength: 0 })).result.history).toBeUndefined();
    expect(texts((await ts.rpc('GetTask', { id: sent.id, history_length: 1 })).result)).toEqual(['Which color?']);
    const listed = (await ts.rpc('ListTasks', {})).result.tasks[0];
    expect(texts(listed)).toEqual(['paint the door', 'Which color?']);
    const canceled = (await ts.rpc('CancelTask', { id: sent.id })).result;
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect(texts(canceled)).toEqual(['paint the door', 'Which color?']);
  });
});
