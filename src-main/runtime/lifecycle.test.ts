import { createServer } from 'node:net';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManifestError } from '../manifest';
import { startSession } from '../launch';
import { rehearsalManifest, startTestSession, type TestSession } from './testing';
import { traceLines } from './trace-lines';

// Queue, rejection, after_task, idle timeout, shared contexts, ports, manifests, children, secrets.

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

const msg = (text: string, contextId = 'ctx', returnImmediately = true) => ({
  message: { messageId: 'm', contextId, role: 'ROLE_USER', parts: [{ text }] },
  configuration: { returnImmediately },
});

describe('lifecycle', () => {
  it('rejects a task that does not fit the queue, with the reason, and answers it', async () => {
    ts = await startTestSession({
      lifecycle: { task_acceptance: 'queue', queue_depth: 1 },
      inference: { rehearsal: { replies: [{ turns: [{ hang: true }] }] } },
    });
    const a = await ts.rpc('SendMessage', msg('a'));
    const b = await ts.rpc('SendMessage', msg('b'));
    expect(b.result.task.status.state).toBe('TASK_STATE_SUBMITTED');
    const c = await ts.rpc('SendMessage', msg('c', 'ctx', false));
    expect(c.result.task.status.state).toBe('TASK_STATE_REJECTED');
    expect(c.result.task.status.message.parts[0].text).toContain('queue full (queue_depth 1)');
    expect(ts.session.taskState(c.result.task.id)).toBe('TASK_STATE_REJECTED');
    expect(
      traceLines(ts.session).find((l) => l.task_id === c.result.task.id && l.event_type === 'task_end'),
    ).toMatchObject({ exit_status: 'rejected' });
    expect(ts.session.status()).toMatchObject({ state: 'busy', running: a.result.task.id, queued: 1 });
  });

  it('task_acceptance single takes no waiting task; none takes no task at all', async () => {
    ts = await startTestSession({
      lifecycle: { task_acceptance: 'single' },
      inference: { rehearsal: { replies: [{ turns: [{ hang: true }] }] } },
    });
    await ts.rpc('SendMessage', msg('a'));
    const b = await ts.rpc('SendMessage', msg('b'));
    expect(b.result.task.status.state).toBe('TASK_STATE_REJECTED');
    expect(b.result.task.status.message.parts[0].text).toContain('task_acceptance: single');
    await ts.dispose();
    ts = await startTestSession({ lifecycle: { task_acceptance: 'none' } });
    const c = await ts.rpc('SendMessage', msg('c'));
    expect(c.result.task.status.message.parts[0].text).toContain('accepts no tasks');
  });

  it('after_task exit ends the session after the last task, answering it first', async () => {
    ts = await startTestSession({ lifecycle: { after_task: 'exit' } });
    const r = await ts.rpc('SendMessage', msg('only one', 'ctx', false));
    expect(r.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await ts.session.ended).toBe('after_task exit');
    expect(traceLines(ts.session).at(-1)).toMatchObject({
      event_type: 'session_end',
      reason: 'after_task exit',
      tasks: 1,
    });
    await expect(fetch(ts.session.url)).rejects.toThrow();
  });

  it('after_task sleep keeps the session; idle_timeout ends an idle one', async () => {
    ts = await startTestSession({ lifecycle: { after_task: 'sleep', idle_timeout: '300ms' } });
    await ts.rpc('SendMessage', msg('one', 'ctx', false));
    expect(await ts.session.ended).toBe('idle timeout');
  });

  it('tasks sharing a contextId share their conversation', async () => {
    ts = await startTestSession();
    const tokensIn = (id: string) =>
      traceLines(ts!.session).find((l) => l.event_type === 'inference' && l.task_id === id)!.tokens_in;
    const a = (await ts.rpc('SendMessage', msg('x'.repeat(400), 'shared', false))).result.task.id;
    const b = (await ts.rpc('SendMessage', msg('second', 'shared', false))).result.task.id;
    const c = (await ts.rpc('SendMessage', msg('second', 'alone', false))).result.task.id;
    expect(tokensIn(a)).toBe(100);
    expect(tokensIn(b)).toBeGreaterThan(tokensIn(a) * 2);
    expect(tokensIn(c)).toBe(2);
  });

  it('a taken port is a clear error naming it and the manifest field', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const home = mkdtempSync(join(tmpdir(), 'capsule-test-'));
    try {
      await expect(
        startSession({
          manifestPath: 'worker/murmur.yaml',
          manifest: rehearsalManifest({ network: { internal_port: port } }),
          env: { CAPSULE_HOME: home },
        }),
      ).rejects.toThrow(new RegExp(`port ${port}.*already in use.*network\\.internal_port`));
      expect(existsSync(join(home, 'run'))).toBe(false);
    } finally {
      blocker.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('loads the manifest file and masks interpolated secrets in the trace; a bad manifest is a ManifestError', async () => {
    const home = mkdtempSync(join(tmpdir(), 'capsule-test-'));
    const file = join(home, 'murmur.yaml');
    writeFileSync(
      file,
      'name: w\nversion: "1"\nartifacts:\n  - name: x\n    gateway:\n      api_key: ${MY_KEY}\ninference:\n  driver:\n    artifact: capsule/driver-rehearsal\n',
    );
    const s = await startSession({
      manifestPath: file,
      env: { CAPSULE_HOME: home, MY_KEY: 'sk-very-secret-value' },
      port: 0,
    });
    try {
      const accepted = s.acceptMessage({
        message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'my key is sk-very-secret-value' }] },
      });
      await accepted.settled;
      const text = JSON.stringify(traceLines(s));
      expect(text).not.toContain('sk-very-secret-value');
      expect(text).toContain('***');
    } finally {
      await s.end();
    }
    writeFileSync(
      file,
      'name: w\nversion: "1"\nbogus: 1\ninference:\n  driver:\n    artifact: capsule/driver-rehearsal\n',
    );
    await expect(startSession({ manifestPath: file, env: { CAPSULE_HOME: home } })).rejects.toBeInstanceOf(
      ManifestError,
    );
    rmSync(home, { recursive: true, force: true });
  });

  it('a child session lives under its parent workdir', async () => {
    const home = mkdtempSync(join(tmpdir(), 'capsule-test-'));
    const s = await startSession({
      manifestPath: 'x.yaml',
      manifest: rehearsalManifest(),
      env: { CAPSULE_HOME: home },
      parent: { sessionId: 'ses_parent', workdir: join(home, 'parent'), name: 'boss' },
    });
    try {
      expect(s.workdir).toMatch(new RegExp(`^${join(home, 'parent', 'children')}/test-worker-[0-9a-f]{16}$`));
      expect(traceLines(s)[0]).toMatchObject({ event_type: 'session_start', parent_session_id: 'ses_parent' });
    } finally {
      await s.end();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('an unknown driver is a clear error and nothing starts', async () => {
    const home = mkdtempSync(join(tmpdir(), 'capsule-test-'));
    const m = rehearsalManifest();
    m.inference.driver.artifact = 'acme/driver-x';
    try {
      await expect(startSession({ manifestPath: 'x', manifest: m, env: { CAPSULE_HOME: home } })).rejects.toThrow(
        /unknown driver artifact "acme\/driver-x"/,
      );
      expect(existsSync(join(home, 'run'))).toBe(false);
      expect(existsSync(join(home, 'records'))).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
