import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeTask } from './task.fixture';
import { createDelegateTool, liveFormation, staticFormation } from './index';

const ORCH = { sessionId: 'ses_orch', taskId: 'tsk_019ed33d1f6873b09d25f0dc5ce387c4', contextId: 'ctx_orch' };

// delegate_task against a hand-written door whose answers the test controls: what the model is
// told for each way a peer task can end, and a cancel that arrives while the send is still out.

interface FakeDoor {
  url: string;
  port: number;
  methods: string[];
  close(): Promise<void>;
}
const doors: FakeDoor[] = [];
afterEach(async () => {
  await Promise.all(doors.splice(0).map((d) => d.close()));
});

/** A door whose task ends in `final` after `polls` GetTasks; SendMessage answers after `sendDelayMs`. */
async function fakeDoor(
  final: Record<string, unknown>,
  opts: { polls?: number; sendDelayMs?: number } = {},
): Promise<FakeDoor> {
  const methods: string[] = [];
  let polls = 0;
  let canceled = false;
  const task = (status: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    id: 'tsk_peer',
    contextId: 'ctx_peer',
    status,
    ...extra,
  });
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', async () => {
      if (req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(text);
      methods.push(body.method);
      const reply = (result: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
      };
      if (body.method === 'SendMessage') {
        await new Promise((r) => setTimeout(r, opts.sendDelayMs ?? 0));
        return reply({ task: task({ state: 'TASK_STATE_SUBMITTED' }) });
      }
      if (body.method === 'CancelTask') {
        canceled = true;
        return reply(task({ state: 'TASK_STATE_CANCELED' }));
      }
      if (canceled) return reply(task({ state: 'TASK_STATE_CANCELED' }));
      if (++polls < (opts.polls ?? 2)) return reply(task({ state: 'TASK_STATE_WORKING' }));
      return reply(task(final.status as Record<string, unknown>, final));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const door = {
    url: `http://127.0.0.1:${port}`,
    port,
    methods,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  doors.push(door);
  return door;
}

const statusText = (state: string, text: string) => ({
  status: { state, message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text }] } },
});

function tool(port: number) {
  return createDelegateTool({
    capsule: { name: 'orch', version: '1' },
    allow: [`localhost:${port}`],
    workdir: () => '/nowhere',
    poll: { firstDelayMs: 5, maxDelayMs: 20 },
  });
}

describe('delegate_task outcomes', () => {
  it('tells the model how the peer task ended', async () => {
    const cases: [Record<string, unknown>, unknown][] = [
      [
        {
          status: { state: 'TASK_STATE_COMPLETED' },
          artifacts: [
            { artifactId: 'a1', name: 'notes', parts: [{ text: 'n' }] },
            { artifactId: 'response', name: 'response', parts: [{ text: 'the answer' }, { data: { k: 1 } }] },
          ],
        },
        {
          ok: true,
          content: 'the answer\n{"k":1}',
          artifact: expect.objectContaining({ parts: [{ data: { k: 1 } }] }),
        },
      ],
      [
        statusText('TASK_STATE_FAILED', 'task failed: upstream broke'),
        { ok: false, error: 'peer_task_failed: task failed: upstream broke' },
      ],
      [statusText('TASK_STATE_REJECTED', 'queue full'), { ok: false, error: 'peer_task_rejected: queue full' }],
      [
        { status: { state: 'TASK_STATE_CANCELED' } },
        { ok: false, error: 'peer_task_canceled: the peer task was canceled' },
      ],
      [
        statusText('TASK_STATE_INPUT_REQUIRED', 'which year?'),
        { ok: false, error: 'peer_task_waiting: task tsk_peer is TASK_STATE_INPUT_REQUIRED: which year?' },
      ],
    ];
    for (const [final, expected] of cases) {
      const door = await fakeDoor(final);
      const t = fakeTask(ORCH);
      expect(await tool(door.port).run({ to: door.url, text: 'x' }, t.ctx)).toEqual(expected);
      expect(door.methods.filter((m) => m === 'GetTask').length).toBeGreaterThanOrEqual(2);
      expect(t.works.size).toBe(0);
    }
  });

  it('refuses bad arguments and unknown names without any request', async () => {
    const t = fakeTask(ORCH);
    const d = createDelegateTool({
      capsule: { name: 'orch', version: '1' },
      allow: ['localhost'],
      workdir: () => '/x',
      formation: staticFormation({ helper: { kind: 'door', url: 'http://localhost:1' } }),
    });
    expect(await d.run({ to: 'worker' }, t.ctx)).toMatchObject({ ok: false, error: expect.stringContaining('text') });
    expect(await d.run({ to: 'nobody', text: 'x' }, t.ctx)).toEqual({
      ok: false,
      error: 'unknown capsule "nobody": not a URL, and not one of this formation\'s capsules (helper)',
    });
    const bare = createDelegateTool({
      capsule: { name: 'orch', version: '1' },
      allow: ['localhost'],
      workdir: () => '/x',
    });
    expect(await bare.run({ to: 'nobody', text: 'x' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('belongs to no formation'),
    });
    expect(await bare.run({ to: 'x', text: 'y', data: [1] }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('invalid arguments'),
    });
    const sub = createDelegateTool({
      capsule: { name: 'orch', version: '1' },
      allow: [],
      workdir: () => '/x',
      formation: staticFormation({ w: { kind: 'manifest', manifestPath: '/no/such/murmur.yaml' } }),
    });
    expect(await sub.run({ to: 'w', text: 'y' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('cannot be started'),
    });
    expect(t.works.size).toBe(0);
  });

  it('tells the model, and the delegation, that a member whose manifest does not load is not running', async () => {
    const t = fakeTask(ORCH);
    const problem = 'line 30, column 1: a [ list is not closed with ]';
    const d = createDelegateTool({
      capsule: { name: 'orch', version: '1' },
      allow: [],
      workdir: () => '/x',
      formation: liveFormation(() => [
        { names: ['researcher'], manifestPath: '/r/murmur.yaml', problem },
        { names: ['writer'], manifestPath: '/w/murmur.yaml' },
      ]),
    });
    expect(d.spec.description).toContain('(researcher, writer)');
    expect(d.spec.description).toContain(`researcher is not running, and its manifest does not load (${problem}).`);
    expect(await d.run({ to: 'researcher', text: 'x' }, t.ctx)).toEqual({
      ok: false,
      error: `capsule "researcher" is in the formation but not running, and its manifest does not load (${problem})`,
    });
    expect(t.works.size).toBe(0);
  });

  it('a cancel while the send is still out waits for the peer task, then cancels it', async () => {
    const door = await fakeDoor({ status: { state: 'TASK_STATE_COMPLETED' } }, { sendDelayMs: 150, polls: 1000 });
    const t = fakeTask(ORCH);
    const running = tool(door.port).run({ to: `localhost:${door.port}`, text: 'x' }, t.ctx);
    await new Promise<void>((r) => {
      const check = () => (door.methods.includes('SendMessage') ? r() : setTimeout(check, 5));
      check();
    });
    const [residue] = await t.cancel();
    expect(door.methods).toEqual(expect.arrayContaining(['SendMessage', 'CancelTask']));
    expect(door.methods).not.toContain('GetTask');
    expect(residue).toMatchObject({
      kind: 'delegation',
      capsule: `localhost:${door.port}`,
      child_session_id: '',
      child_workdir: '',
    });
    expect(await running).toEqual({ ok: false, error: 'canceled' });
    expect(t.events.find((e) => e.event_type === 'delegation_end')).toMatchObject({
      state: 'canceled',
      cancel_sent: true,
      peer_task_id: 'tsk_peer',
    });
  });

  it('ends a sub-capsule whose start outlasted the cancel', async () => {
    const ended: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fakeChild = {
      id: 'ses_child',
      url: 'http://127.0.0.1:9',
      workdir: '/rec/children/w-1',
      manifest: { name: 'w', version: '3' },
      end: async (why: string) => void ended.push(why),
    };
    const d = createDelegateTool({
      capsule: { name: 'orch', version: '1' },
      allow: [],
      workdir: () => '/rec',
      formation: staticFormation({ w: { kind: 'manifest', manifestPath: '/w/murmur.yaml' } }),
      startChild: async () => {
        await gate;
        return fakeChild as never;
      },
      cancelTimeoutMs: 20,
    });
    const t = fakeTask(ORCH);
    const running = d.run({ to: 'w', text: 'x' }, t.ctx);
    await new Promise((r) => setTimeout(r, 10));
    const [residue] = await t.cancel();
    // Nothing is known of the child yet: the residue names the capsule asked for.
    expect(residue).toMatchObject({ kind: 'delegation', capsule: 'w', child_session_id: '' });
    expect(ended).toEqual([]);
    release();
    expect(await running).toEqual({ ok: false, error: 'canceled' });
    expect(ended).toEqual(['delegating task canceled']);
  });
});
