import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rehearsalManifest, startTestSession, type TestSession } from './testing';
import { startSession } from '../launch';
import type { Session } from './api';

let ts: TestSession | undefined;
let resumed: Session | undefined;
afterEach(async () => {
  await resumed?.end();
  resumed = undefined;
  await ts?.dispose();
  ts = undefined;
});

const send = (text: string) => ({ message: { messageId: `m-${text}`, contextId: 'ctx-r', role: 'ROLE_USER', parts: [{ text }] } });

describe('resuming a session', () => {
  it('keeps the id and records, and answers GetTask for tasks finished before the restart', async () => {
    ts = await startTestSession();
    const done = (await ts.rpc('SendMessage', send('first job'))).result.task;
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const { id, workdir } = ts.session;
    await ts.session.end('restart');
    // A crash mid-task: the old process wrote the task's start but never its end.
    appendFileSync(
      join(workdir, 'trace.jsonl'),
      JSON.stringify({ ts: new Date().toISOString(), event_type: 'task_start', session_id: id, task_id: 'tsk_interrupted', context_id: 'ctx-r' }) + '\n',
    );

    resumed = await startSession({ manifestPath: join(ts.home, 'murmur.yaml'), manifest: rehearsalManifest(), env: ts.env, port: 0, resume: { sessionId: id, workdir } });
    expect(resumed.id).toBe(id);
    expect(resumed.workdir).toBe(workdir);
    const again = resumed.getTask(done.id);
    expect(again?.status.state).toBe('TASK_STATE_COMPLETED');
    expect(again?.artifacts?.[0]).toMatchObject({ artifactId: 'response', parts: [{ text: done.artifacts[0].parts[0].text }] });
    const lost = resumed.getTask('tsk_interrupted');
    expect(lost?.status.state).toBe('TASK_STATE_FAILED');
    expect(lost?.status.message?.parts[0].text).toMatch(/ended before this task finished/);
    // Finished tasks stay final: a cancel is refused as for any finished task.
    await expect(resumed.cancelTask(done.id)).rejects.toMatchObject({ code: -32002 });
  });
});
