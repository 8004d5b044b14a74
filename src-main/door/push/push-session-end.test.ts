import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startTestSession } from '../../runtime/testing';
import { startReceiver } from './receiver.fixture';
import { PUSH_CONFIGS_FILE } from './store';

// The push configs are written off the main thread; the last change is in the records folder by
// the time the session has ended, so a restarted door answers for it.

it('writes the last change of the push configs before the session ends', async () => {
  const ts = await startTestSession();
  const receiver = await startReceiver();
  try {
    const { result } = await ts.rpc('SendMessage', {
      message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
    });
    const taskId = result.task.id as string;
    for (const id of ['a', 'b', 'c']) {
      const made = await ts.rpc('CreateTaskPushNotificationConfig', { taskId, id, url: receiver.url(`/${id}`) });
      expect(made.result.id).toBe(id);
    }
    // The final update went to each config made on the finished task.
    await receiver.waitFor('/c', 1);
    await ts.rpc('DeleteTaskPushNotificationConfig', { taskId, id: 'b' });
    await ts.session.end('test over');
    const saved = JSON.parse(readFileSync(join(ts.session.workdir, PUSH_CONFIGS_FILE), 'utf8'));
    expect(saved[taskId].map((c: { id: string }) => c.id)).toEqual(['a', 'c']);
  } finally {
    await ts.dispose();
    await receiver.close();
  }
});
