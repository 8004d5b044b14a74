import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventMap, EventName, FormationView, RuntimeView } from '../src-shared/contract';
import { createCore, type Core, type CoreConnection } from './core';

// Two `capsule serve --studio` processes stand for two hosts (own CAPSULE_HOME, ports and records;
// loopback only). A Studio core attached to both draws an edge from the orchestrator on one to the
// worker on the other, runs a task, follows both traces live, cancels and reads the residue; a
// wrong or revoked token is refused with 401 and runs nothing; a killed serve shows lost and the
// link comes back when it is started again.

const BIN = resolve(__dirname, '../bin/capsule.js');
const root = mkdtempSync(join(tmpdir(), 'capsule-two-hosts-'));
const procs: ChildProcess[] = [];
let core: Core | undefined;

afterAll(async () => {
  await core?.dispose();
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });

const rehearsal = (lines: string) =>
  `inference:\n  transport: embedded\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n${lines}`;

function host(name: string, files: Record<string, string>, capsules: string[]) {
  const home = join(root, name, 'home');
  const ws = join(root, name, 'ws');
  mkdirSync(home, { recursive: true });
  mkdirSync(ws, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(ws, f), text);
  writeFileSync(
    join(ws, 'formation.yaml'),
    `capsules:\n${capsules.map((c, i) => `  - id: ${c}\n    manifest: ${c}.yaml\n    position: { x: ${100 + i * 300}, y: 100 }\n`).join('')}remotes: []\n`,
  );
  return { home, ws };
}

async function serve(
  h: { home: string; ws: string },
  port: number,
): Promise<{ proc: ChildProcess; url: string; token?: string }> {
  const again = started.has(h.home);
  const proc = spawn(process.execPath, [BIN, 'serve', '--workspace', h.ws, '--studio', '--studio-port', String(port)], {
    env: { ...process.env, CAPSULE_HOME: h.home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  procs.push(proc);
  const lines: string[] = [];
  proc.stderr!.on('data', () => undefined);
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve did not start: ${lines.join(' | ')}`)), 30_000);
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      lines.push(l);
      // The first start prints the token after the URL; a restart keeps it and prints the URL last.
      if (l.startsWith('studio token: ') || (l.startsWith('studio: ') && again)) {
        clearTimeout(timer);
        done();
      }
    });
  });
  started.add(h.home);
  return {
    proc,
    url: lines.find((l) => l.startsWith('studio: '))!.slice(8),
    token: lines.find((l) => l.startsWith('studio token: '))?.slice(14),
  };
}
const started = new Set<string>();

function until<T>(what: string, check: () => T | undefined, ms = 30_000): Promise<T> {
  return new Promise((done, fail) => {
    const t0 = Date.now();
    const tick = () => {
      let v: T | undefined;
      try {
        v = check();
      } catch {
        v = undefined;
      }
      if (v !== undefined && v !== false) return done(v);
      if (Date.now() - t0 > ms) return fail(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 50);
    };
    tick();
  });
}

describe('a Studio attached to runtimes on two hosts', () => {
  it('wires an orchestrator on one to a worker on the other, runs, follows, cancels across hosts; refuses bad tokens; reconnects', async () => {
    const workerPort = await freePort();
    const a = host(
      'a',
      {
        'boss.yaml': `name: boss\nversion: "1"\nrole: orchestrator\n${rehearsal('  max_turns: 4\n  rehearsal:\n    replies:\n      - turns:\n          - tool_calls:\n              - name: delegate_task\n                arguments: { to: "*", text: "take your time" }\n          - text: "done"\n')}`,
      },
      ['boss'],
    );
    const b = host(
      'b',
      {
        'helper.yaml': `name: helper\nversion: "1"\nrole: worker\nnetwork:\n  internal_port: ${workerPort}\n${rehearsal('  rehearsal:\n    delay_ms: 600000\n    replies:\n      - turns:\n          - text: "slow answer"\n')}`,
      },
      ['helper'],
    );
    const [portA, portB] = [await freePort(), await freePort()];
    const [sa, sb] = await Promise.all([serve(a, portA), serve(b, portB)]);

    const local = join(root, 'local');
    mkdirSync(join(local, 'ws'), { recursive: true });
    writeFileSync(join(local, 'ws', 'formation.yaml'), 'capsules: []\nremotes: []\n');
    core = createCore({
      userDataDir: join(local, 'data'),
      recordsRoot: join(local, 'records'),
      resourcesDir: resolve(__dirname, '../resources'),
      workspace: join(local, 'ws'),
      runtimeBackoffMs: [200, 400],
    });
    await core.ready;
    const events: { event: EventName; payload: unknown }[] = [];
    const client: CoreConnection = core.connect((event, payload) => events.push({ event, payload }));
    const view = async () => (await core!.invoke('formation.get', {})) as FormationView;
    const runtimes = async () => (await core!.invoke('runtimes.list', {})) as RuntimeView[];

    // A wrong token: refused with 401 at the door of the serve, nothing attached, nothing sent.
    const wrong = await core.handle('runtimes.attach', {
      url: sa.url,
      token: 'capsule_not_the_token',
      label: 'host a',
    });
    expect(wrong).toMatchObject({
      ok: false,
      error: { code: 'remote_unreachable', message: expect.stringContaining('401') },
    });
    expect(await runtimes()).toEqual([]);

    const ra = await core.invoke('runtimes.attach', { url: sa.url, token: sa.token!, label: 'host a' });
    const rb = await core.invoke('runtimes.attach', { url: sb.url, token: sb.token!, label: 'host b' });
    expect([ra.id, ra.state, rb.id, rb.state]).toEqual(['host-a', 'connected', 'host-b', 'connected']);
    // The token never leaves the core: not in an answer, not in an event.
    expect(JSON.stringify(await runtimes())).not.toContain(sa.token!);
    expect(JSON.stringify(events)).not.toContain(sb.token!);

    await until('both capsules running in the merged view', () => {
      void view().then((v) => (last = v));
      return last?.capsules.some((c) => c.id === '@host-a/boss' && c.state === 'idle') &&
        last.capsules.some((c) => c.id === '@host-b/helper' && c.state === 'idle')
        ? last
        : undefined;
    });
    const boss = last!.capsules.find((c) => c.id === '@host-a/boss')!;
    const helper = last!.capsules.find((c) => c.id === '@host-b/helper')!;
    expect([boss.runtime, helper.runtime]).toEqual(['host-a', 'host-b']);

    // The edge across hosts: the allow entry on host a, the export on host b.
    const edge = await core.invoke('edge.connect', { source: boss.id, target: helper.id });
    expect(edge.edge).toMatchObject({
      source: '@host-a/boss',
      target: '@host-b/helper',
      address: `http://127.0.0.1:${workerPort}`,
    });
    const bossManifest = await core.invoke('manifest.read', { id: boss.id });
    expect(bossManifest.source).toContain(`http://127.0.0.1:${workerPort}`);
    expect((await core.invoke('manifest.read', { id: helper.id })).source).toMatch(/peer_tasks:\s*\n\s*accept: true/);
    await until('the edge drawn from host a to host b', () => {
      void view().then((v) => (last = v));
      return last?.edges.find((e) => e.source === boss.id && e.target === helper.id && e.targetKind === 'capsule');
    });

    // Both traces live while the task runs: the orchestrator's on host a, the worker's on host b.
    await client.handle('trace.follow', { sessionId: boss.sessionId });
    await client.handle('trace.follow', { sessionId: helper.sessionId });
    const sent = await core.invoke('task.send', { capsuleId: boss.id, text: 'go', returnImmediately: true });
    await until('the worker on host b working on the delegated task', () =>
      events.some(
        (e) =>
          e.event === 'task.updated' &&
          (e.payload as EventMap['task.updated']).capsuleId === helper.id &&
          (e.payload as EventMap['task.updated']).task.status.state === 'TASK_STATE_WORKING',
      ),
    );
    const traced = (sid: string | undefined) =>
      events.some((e) => e.event === 'trace.appended' && (e.payload as EventMap['trace.appended']).sessionId === sid);
    await until('trace lines of both sessions', () => traced(boss.sessionId) && traced(helper.sessionId));
    const appended = events
      .filter((e) => e.event === 'trace.appended')
      .map((e) => e.payload as EventMap['trace.appended']);
    expect(appended.find((t) => t.sessionId === helper.sessionId)!.capsuleId).toBe(helper.id);

    // Cancel on host a cascades to host b over A2A, and the residue names the delegation.
    const cancel = await core.invoke('task.cancel', { capsuleId: boss.id, taskId: sent.id });
    expect(cancel.task?.status.state).toBe('TASK_STATE_CANCELED');
    expect(cancel.residue).toContainEqual(expect.objectContaining({ kind: 'delegation', capsule: 'helper' }));
    let helperTasks: { status: { state: string } }[] = [];
    await until('the worker task canceled on host b', () => {
      void core!.invoke('task.list', { capsuleId: helper.id }).then((l) => (helperTasks = l));
      return helperTasks.length && helperTasks.every((t) => t.status.state === 'TASK_STATE_CANCELED')
        ? true
        : undefined;
    });

    // The sessions browser over host b's records.
    const listed = await core.invoke('sessions.list', { runtime: 'host-b' });
    expect(listed.sessions.map((s) => s.id)).toContain(helper.sessionId);
    const tail = await core.invoke('trace.tail', { sessionId: helper.sessionId! });
    expect(tail.events.map((e) => e.event_type)).toContain('task_canceled');

    // Moving a runtime's node saves its own position on its host (the canvas offset taken off).
    await core.invoke('capsule.move', { id: helper.id, position: { x: helper.position.x + 40, y: helper.position.y } });
    await until('the moved node back from host b', () => {
      void view().then((v) => (last = v));
      return last?.capsules.find(
        (c) => c.id === helper.id && c.position.x === helper.position.x + 40 && c.position.y === helper.position.y,
      );
    });
    // Expose goes through host b's gateway; its answer names the capsule as this Studio does.
    const exposed = await core.invoke('expose.enable', { capsuleId: helper.id });
    expect(exposed.exposure.capsuleId).toBe(helper.id);
    expect(exposed.token).toMatch(/\S{16,}/);
    expect((await core.invoke('expose.list', { runtime: 'host-b' })).exposures.map((e) => e.capsuleId)).toEqual([
      helper.id,
    ]);
    expect((await core.invoke('expose.list', {})).exposures).toEqual([]);
    // Its events come live, tagged with the runtime and its capsule named as here: an outside call
    // refused at host b's gateway shows in the access log this Studio's panel follows.
    await until('the exposure change relayed from host b', () =>
      events.find(
        (e) =>
          e.event === 'exposure.changed' &&
          (e.payload as EventMap['exposure.changed']).runtime === 'host-b' &&
          (e.payload as EventMap['exposure.changed']).exposures.some((x) => x.capsuleId === helper.id),
      ),
    );
    const refused = await fetch(exposed.exposure.url, {
      method: 'POST',
      headers: {
        authorization: 'Bearer capsule_not_the_token',
        'content-type': 'application/json',
        'a2a-version': '1.0',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'nope' } }),
    });
    expect(refused.status).toBe(401);
    const accessed = await until('the refused call in the live access log', () =>
      events
        .map((e) => e.payload as EventMap['exposure.accessed'])
        .find((p, i) => events[i].event === 'exposure.accessed' && p.entry.capsule === helper.id),
    );
    expect(accessed).toMatchObject({ runtime: 'host-b', entry: { status: 401 } });
    // Nothing of host b's gateway passes for this Studio's own (untagged) gateway.
    expect(
      events.filter((e) => e.event.startsWith('exposure.') && !(e.payload as { runtime?: string }).runtime),
    ).toEqual([]);
    expect(
      (await core.invoke('expose.accessLog', { capsuleId: helper.id })).map((e) => [e.capsule, e.status]),
    ).toContainEqual([helper.id, 401]);

    // The gateway settings of a runtime's capsule land on that host's gateway, not this one's.
    const configured = await core.invoke('gateway.configure', {
      runtime: 'host-b',
      publicOrigin: 'https://agents-b.example.com',
    });
    expect(configured.publicOrigin).toBe('https://agents-b.example.com');
    expect((await core.invoke('expose.list', { runtime: 'host-b' })).gateway.publicOrigin).toBe(
      'https://agents-b.example.com',
    );
    expect((await core.invoke('gateway.status', {})).publicOrigin).toBeUndefined();
    await until('the new gateway settings relayed from host b', () =>
      events.find(
        (e) =>
          e.event === 'exposure.changed' &&
          (e.payload as EventMap['exposure.changed']).runtime === 'host-b' &&
          (e.payload as EventMap['exposure.changed']).gateway.publicOrigin === 'https://agents-b.example.com',
      ),
    );

    // Commands not carried to runtimes yet are refused for their capsules and sessions, never run
    // on this Studio's formation (its breakpoints stay empty).
    const notYet = {
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringContaining('not available for capsules on other hosts yet'),
      },
    };
    expect(await core.handle('breakpoints.set', { kind: 'turn', capsuleId: helper.id })).toMatchObject(notYet);
    expect(await core.handle('breakpoints.set', { kind: 'edge', from: boss.id, to: helper.id })).toMatchObject(notYet);
    expect(
      await core.handle('breakpoints.resume', { sessionId: helper.sessionId, taskId: 't', action: 'continue' }),
    ).toMatchObject(notYet);
    expect(await core.handle('sessions.replay', { sessionId: helper.sessionId })).toMatchObject(notYet);
    expect(await core.handle('tests.saveFromSession', { sessionId: helper.sessionId, name: 'from-b' })).toMatchObject(
      notYet,
    );
    expect((await core.invoke('breakpoints.list', {})).breakpoints).toEqual([]);
    // A fork family goes to its runtime; a comparison of runs on two hosts is refused (one within
    // a runtime goes to it: below, once host a has run the orchestrator twice).
    expect(await core.invoke('sessions.family', { sessionId: boss.sessionId! })).toEqual({ ancestors: [], forks: [] });
    expect(await core.handle('sessions.compare', { a: boss.sessionId, b: helper.sessionId })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('different runtimes') },
    });

    // A capsule added to host b's formation is made on that host, under its id here.
    const added = await core.invoke('capsule.add', {
      kind: 'worker',
      name: 'extra',
      position: { x: helper.position.x, y: helper.position.y + 300 },
      runtime: 'host-b',
    });
    expect(added).toMatchObject({
      id: '@host-b/extra',
      runtime: 'host-b',
      position: { x: helper.position.x, y: helper.position.y + 300 },
    });
    await core.invoke('capsule.remove', { id: added.id, deleteManifest: true });

    // Host a killed: lost and retried; started again, it is back with its capsules.
    sa.proc.kill('SIGKILL');
    await until('host a lost', () =>
      events.some(
        (e) =>
          e.event === 'runtimes.changed' &&
          (e.payload as EventMap['runtimes.changed']).runtimes.some(
            (r) => r.id === 'host-a' && r.state === 'lost' && r.retryInS !== undefined,
          ),
      ),
    );
    expect((await core.handle('capsule.launch', { id: boss.id })).ok).toBe(false);
    expect((await view()).capsules.some((c) => c.id === boss.id)).toBe(true); // still shown, as last known
    await serve(a, portA);
    let rts: RuntimeView[] = [];
    await until('host a connected again', () => {
      void runtimes().then((r) => (rts = r));
      return rts.find((r) => r.id === 'host-a' && r.state === 'connected' && r.capsules === 1);
    });
    const again = await until('the orchestrator running again on host a', () => {
      void view().then((v) => (last = v));
      return last?.capsules.find((c) => c.id === boss.id && c.sessionId && c.sessionId !== boss.sessionId);
    });
    const compared = await core.invoke('sessions.compare', { a: boss.sessionId!, b: again.sessionId! });
    expect([compared.a.id, compared.b.id, compared.b.capsuleId]).toEqual([boss.sessionId, again.sessionId, boss.id]);

    // Host b's token revoked: the link is refused with 401 and nothing more runs there.
    const revoke = spawn(process.execPath, [BIN, 'serve', '--studio-token', 'revoke'], {
      env: { ...process.env, CAPSULE_HOME: b.home },
      stdio: 'ignore',
    });
    await new Promise((r) => revoke.once('exit', r));
    await until('host b refused', () => {
      void runtimes().then((r) => (rts = r));
      return rts.find((r) => r.id === 'host-b' && r.state === 'refused' && /401/.test(r.message ?? ''));
    });
    expect(await core.handle('task.send', { capsuleId: helper.id, text: 'run anyway' })).toMatchObject({
      ok: false,
      error: { code: 'remote_unreachable' },
    });

    // Remembered across restarts: a new core with the same user data attaches again by itself.
    await core.dispose();
    core = createCore({
      userDataDir: join(local, 'data'),
      recordsRoot: join(local, 'records'),
      resourcesDir: resolve(__dirname, '../resources'),
      workspace: join(local, 'ws'),
      runtimeBackoffMs: [200, 400],
    });
    await core.ready;
    await until('host a attached again after a restart', () => {
      void runtimes().then((r) => (rts = r));
      return rts.find((r) => r.id === 'host-a' && r.state === 'connected');
    });
    await core.invoke('runtimes.detach', { id: 'host-a' });
    expect((await runtimes()).map((r) => r.id)).toEqual(['host-b']);
    expect((await view()).capsules.some((c) => c.id === boss.id)).toBe(false);
  }, 120_000);
});

let last: FormationView | undefined;
