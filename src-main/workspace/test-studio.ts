import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EventMap, EventName } from '../../src-shared/contract';
import { createCore, type Core, type CorePorts } from '../core';
import { freePort } from './free-port';

// Test helper (not part of the product surface): a core on temp folders with a copy of the
// example workspace, recording every event it emits.

export const RESOURCES = resolve(__dirname, '../../resources');

/** Moves the example's pinned worker ports (and the coordinator's allow entries) to free ports, so parallel tests never collide. */
export async function repinExamplePorts(workspace: string): Promise<number[]> {
  const ports = [await freePort(new Set()), await freePort(new Set())];
  for (const file of readdirSync(join(workspace, 'capsules'))) {
    const path = join(workspace, 'capsules', file);
    let text = readFileSync(path, 'utf8');
    ['47311', '47312'].forEach((p, i) => (text = text.split(p).join(String(ports[i]))));
    writeFileSync(path, text);
  }
  return ports;
}

export interface TestStudio {
  core: Core;
  home: string;
  workspace: string;
  events: { event: EventName; payload: unknown }[];
  next<E extends EventName>(event: E, match?: (p: EventMap[E]) => boolean, timeoutMs?: number): Promise<EventMap[E]>;
  dispose(): Promise<void>;
}

export async function createTestStudio(opts: { ports?: CorePorts; workspace?: string | null; watchDebounceMs?: number; env?: Record<string, string> } = {}): Promise<TestStudio> {
  const home = mkdtempSync(join(tmpdir(), 'studio-core-'));
  const workspace = join(home, 'ws');
  if (opts.workspace === undefined) {
    cpSync(join(RESOURCES, 'example-workspace'), workspace, { recursive: true });
    await repinExamplePorts(workspace);
  }
  const core = createCore(
    { userDataDir: join(home, 'data'), resourcesDir: RESOURCES, recordsRoot: join(home, 'records'), workspace: opts.workspace === undefined ? workspace : (opts.workspace ?? undefined), watchDebounceMs: opts.watchDebounceMs ?? 30, env: { ...opts.env, CAPSULE_HOME: home } },
    opts.ports,
  );
  const events: TestStudio['events'] = [];
  const waiters = new Set<(event: EventName, payload: unknown) => void>();
  core.subscribe((event, payload) => {
    events.push({ event, payload });
    for (const w of [...waiters]) w(event, payload);
  });
  await core.ready;
  return {
    core,
    home,
    workspace,
    events,
    next(event, match, timeoutMs = 5000) {
      return new Promise((res, rej) => {
        const timer = setTimeout(() => (waiters.delete(w), rej(new Error(`no ${event} within ${timeoutMs} ms`))), timeoutMs);
        const w = (e: EventName, p: unknown) => {
          if (e !== event || (match && !match(p as never))) return;
          clearTimeout(timer);
          waiters.delete(w);
          res(p as never);
        };
        waiters.add(w);
      });
    },
    async dispose() {
      await core.dispose();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
