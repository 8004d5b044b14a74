import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Task } from '../../../src-shared/a2a';
import type { WireMessage } from '../../../src-shared/contract';
import { createTestStudio, type TestStudio } from '../../workspace/test-studio';
import { startWebShell, type WebShell } from './server';

// A thousand blocking task.send in flight from one Studio page: each is answered, as a task the
// capsule ran or one it refused as REJECTED saying why (its queue is full). None is lost to a
// connection limit: the Studio reaches the sessions it hosts in process, not over HTTP.

let studio: TestStudio | undefined;
let shell: WebShell | undefined;
afterEach(async () => {
  await shell?.dispose();
  await studio?.dispose();
  shell = studio = undefined;
});

const SENDS = 1000;

describe('the Studio under a thousand sends', () => {
  it('answers every one: run, or refused REJECTED with the reason; no connection reset', async () => {
    studio = await createTestStudio();
    const file = join(studio.workspace, 'capsules', 'writer.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('delay_ms: 300', 'delay_ms: 20'));
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    shell = await startWebShell({ core: studio.core, rendererDir: '/nonexistent', port: 0 });
    const ws = new WebSocket(`${shell.url.replace('http', 'ws')}/ws`, { headers: { origin: shell.url } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));

    const replies = new Map<number, Extract<WireMessage, { type: 'reply' }>>();
    const all = new Promise<void>((resolve) =>
      ws.on('message', (d) => {
        const m = JSON.parse(String(d)) as WireMessage;
        if (m.type === 'reply') replies.set(m.id, m);
        if (replies.size === SENDS) resolve();
      }),
    );
    for (let id = 1; id <= SENDS; id++)
      ws.send(
        JSON.stringify({ type: 'invoke', id, cmd: 'task.send', input: { capsuleId: 'writer', text: `draft ${id}` } }),
      );
    await all;
    ws.close();

    const failed = [...replies.values()].filter((r) => !r.ok);
    expect(failed.map((r) => (r.ok ? '' : r.error.message)).slice(0, 3)).toEqual([]);
    const tasks = [...replies.values()].map((r) => (r.ok ? (r.value as Task) : undefined)!);
    const states = new Set(tasks.map((t) => t.status.state));
    expect([...states].sort()).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_REJECTED']);
    const rejected = tasks.filter((t) => t.status.state === 'TASK_STATE_REJECTED');
    expect(rejected.length).toBeGreaterThan(900);
    for (const t of rejected)
      expect(t.status.message?.parts[0].text).toMatch(/^task rejected: queue full \(queue_depth 8\)/);
  }, 60_000);

  it('a blocking send stops waiting when its caller cancels it or its timeoutMs passes; timeoutMs 0 does not block', async () => {
    studio = await createTestStudio();
    const file = join(studio.workspace, 'capsules', 'writer.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('delay_ms: 300', 'delay_ms: 3000'));
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    const started = Date.now();
    const now = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'a', timeoutMs: 0 });
    expect(now.status.state).not.toBe('TASK_STATE_COMPLETED');
    const timed = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'b', timeoutMs: 200 });
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(timed.status.state);
    const abort = new AbortController();
    const waiting = studio.core.invoke('task.send', { capsuleId: 'writer', text: 'c' }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    await expect(waiting).rejects.toMatchObject({ code: 'canceled' });
    expect(Date.now() - started).toBeLessThan(2500);
  }, 30_000);
});
