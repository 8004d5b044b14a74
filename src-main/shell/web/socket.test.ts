import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Core } from '../../core';
import { createTestStudio, type TestStudio } from '../../workspace/test-studio';
import { serveContract, type ContractSocket } from './socket';

// The web shell's socket is one client of the core: when it closes (the page leaves, the tab is
// closed), every command it still waits on is aborted, so the core stops that work; another
// socket's commands go on.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

/** A socket driven by the test: `message` hands the server a request, `close` closes it. */
function fakeSocket() {
  const on: { message?: (data: unknown) => void; close?: () => void } = {};
  const sent: unknown[] = [];
  const socket: ContractSocket = {
    send: (text) => sent.push(JSON.parse(text)),
    close: () => on.close?.(),
    on: (event: 'message' | 'close', listener: (data?: unknown) => void) => void (on[event] = listener),
  };
  const invoke = (id: number, cmd: string, input: unknown = {}) =>
    on.message!(JSON.stringify({ type: 'invoke', id, cmd, input }));
  return { socket, sent, invoke, close: () => on.close!() };
}

it('closing a socket aborts its commands in flight, and only its own', async () => {
  const signals: { client: number; cmd: unknown; signal?: AbortSignal }[] = [];
  let clients = 0;
  // A core whose commands wait until their signal aborts.
  const core = {
    connect: () => {
      const client = ++clients;
      return {
        handle: (cmd: unknown, _input: unknown, signal?: AbortSignal) => {
          signals.push({ client, cmd, signal });
          return new Promise((ok) => signal?.addEventListener('abort', () => ok({ ok: true, value: null })));
        },
        close: () => undefined,
      };
    },
  } as unknown as Core;
  const a = fakeSocket();
  const b = fakeSocket();
  serveContract(core, a.socket);
  serveContract(core, b.socket);
  a.invoke(1, 'tests.run');
  a.invoke(2, 'sessions.list');
  b.invoke(1, 'tests.run');
  expect(signals.map((s) => s.signal?.aborted)).toEqual([false, false, false]);

  a.close();
  expect(signals.map((s) => [s.client, s.cmd, s.signal?.aborted])).toEqual([
    [1, 'tests.run', true],
    [1, 'sessions.list', true],
    [2, 'tests.run', false],
  ]);
  // Nobody reads a closed socket's replies: none is sent.
  await new Promise((r) => setTimeout(r, 10));
  expect(a.sent).toEqual([]);
});

it('the core stops the test run of a page that left: its one-at-a-time runner takes the next at once', async () => {
  studio = await createTestStudio();
  const { core, workspace } = studio;
  await core.invoke('workspace.open', { dir: workspace });
  mkdirSync(join(workspace, 'tests'), { recursive: true });
  writeFileSync(
    join(workspace, 'tests', 'slow.yaml'),
    'entry: coordinator\nscripts:\n  coordinator:\n    delay_ms: 30000\n    replies:\n      - turns:\n          - text: late\ntasks:\n  - text: take your time\n',
  );
  writeFileSync(
    join(workspace, 'tests', 'quick.yaml'),
    'entry: coordinator\nscripts:\n  coordinator:\n    replies:\n      - turns:\n          - text: done\ntasks:\n  - text: be quick\n    expect:\n      answer: done\n',
  );
  const page = fakeSocket();
  serveContract(core, page.socket);
  page.invoke(1, 'tests.run', { name: 'slow' });
  // The slow run holds the runner: another is refused while it runs.
  await expect
    .poll(() => core.invoke('tests.run', { name: 'quick' }).catch((e: Error) => e.message))
    .toMatch(/running|already/i);
  page.close();
  await expect
    .poll(
      () =>
        core.invoke('tests.run', { name: 'quick' }).then(
          (r) => (r.passed ? 'passed' : 'failed'),
          (e: Error) => e.message,
        ),
      {
        timeout: 5_000,
      },
    )
    .toBe('passed');
}, 30_000);
