import { appendFileSync, readFileSync } from 'node:fs';
import { readTraceLines } from '../trace';
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

const send = (text: string) => ({
  message: { messageId: `m-${text}`, contextId: 'ctx-r', role: 'ROLE_USER', parts: [{ text }] },
});

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
      JSON.stringify({
        ts: new Date().toISOString(),
        event_type: 'task_start',
        session_id: id,
        task_id: 'tsk_interrupted',
        context_id: 'ctx-r',
      }) + '\n',
    );

    resumed = await startSession({
      manifestPath: join(ts.home, 'murmur.yaml'),
      manifest: rehearsalManifest(),
      env: ts.env,
      port: 0,
      resume: { sessionId: id, workdir },
    });
    expect(resumed.id).toBe(id);
    expect(resumed.workdir).toBe(workdir);
    const again = await resumed.readTask(done.id);
    expect(again?.status.state).toBe('TASK_STATE_COMPLETED');
    expect(again?.artifacts?.[0]).toMatchObject({
      artifactId: 'response',
      parts: [{ text: done.artifacts[0].parts[0].text }],
    });
    const lost = await resumed.readTask('tsk_interrupted');
    expect(lost?.status.state).toBe('TASK_STATE_FAILED');
    expect(lost?.status.message?.parts[0].text).toMatch(/ended before this task finished/);
    // Finished tasks stay final: a cancel is refused as for any finished task.
    await expect(resumed.cancelTask(done.id)).rejects.toMatchObject({ code: -32002 });
  });

  it('after a torn last line, the resumed session writes on a line of its own and every reader reads it', async () => {
    ts = await startTestSession();
    const done = (await ts.rpc('SendMessage', send('before the crash'))).result.task;
    const { id, workdir } = ts.session;
    await ts.session.end('restart');
    const path = join(workdir, 'trace.jsonl');
    // kill -9 mid-write: half a line, no newline.
    appendFileSync(path, '{"ts":"2026-01-01T00:00:00.000Z","event_type":"task_st');

    resumed = await startSession({
      manifestPath: join(ts.home, 'murmur.yaml'),
      manifest: rehearsalManifest(),
      env: ts.env,
      port: 0,
      resume: { sessionId: id, workdir },
    });
    const res = await fetch(resumed.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: send('after the resume') }),
    });
    const later = ((await res.json()) as { result: { task: { id: string; status: { state: string } } } }).result.task;
    expect(later.status.state).toBe('TASK_STATE_COMPLETED');
    await resumed.end('over');
    resumed = undefined;

    const chunk = readTraceLines(path);
    expect(chunk.skipped.bad).toBe(1);
    expect(chunk.torn).toBeUndefined();
    const starts = chunk.lines.filter((l) => l.event.event_type === 'session_start');
    expect(starts).toHaveLength(2);
    expect(chunk.lines.at(-1)!.event.event_type).toBe('session_end');
    expect(readFileSync(path, 'utf8')).toContain('"event_type":"task_st\n');
    // A second resume reads the first's lines back: the task finished before the crash still answers.
    resumed = await startSession({
      manifestPath: join(ts.home, 'murmur.yaml'),
      manifest: rehearsalManifest(),
      env: ts.env,
      port: 0,
      resume: { sessionId: id, workdir },
    });
    expect(resumed.taskState(done.id)).toBe('TASK_STATE_COMPLETED');
    expect(resumed.taskState(later.id)).toBe('TASK_STATE_COMPLETED');
  });
});
