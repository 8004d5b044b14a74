import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  applyFormationChange,
  withCapsuleState,
  type EventMap,
  type EventName,
  type FormationView,
} from '../../src-shared/contract';
import { createCore, type Core, type CorePorts } from '../core';
import { freePort } from './free-port';

// Test helper (not part of the product surface): a core on temp folders with a copy of the
// example workspace, recording every event it emits and rebuilding the formation from the
// formation.changed diffs as a client does.

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
  /** The formation as the formation.changed diffs since the start built it (undefined before a workspace is open). */
  view(): FormationView | undefined;
  /** The next formation.changed after which the rebuilt view matches. */
  nextView(match: (v: FormationView) => boolean, timeoutMs?: number): Promise<FormationView>;
  /** formation.changed events that did not follow the view held (a client would have asked formation.get). */
  missed: number;
  dispose(): Promise<void>;
}

export async function createTestStudio(
  opts: { ports?: CorePorts; workspace?: string | null; watchDebounceMs?: number; env?: Record<string, string> } = {},
): Promise<TestStudio> {
  const home = mkdtempSync(join(tmpdir(), 'studio-core-'));
  const workspace = join(home, 'ws');
  if (opts.workspace === undefined) {
    cpSync(join(RESOURCES, 'example-workspace'), workspace, { recursive: true });
    await repinExamplePorts(workspace);
  }
  const core = createCore(
    {
      userDataDir: join(home, 'data'),
      resourcesDir: RESOURCES,
      recordsRoot: join(home, 'records'),
      workspace: opts.workspace === undefined ? workspace : (opts.workspace ?? undefined),
      watchDebounceMs: opts.watchDebounceMs ?? 30,
      env: { ...opts.env, CAPSULE_HOME: home },
    },
    opts.ports,
  );
  const events: TestStudio['events'] = [];
  const waiters = new Set<(event: EventName, payload: unknown) => void>();
  let view: FormationView | undefined;
  let missed = 0;
  core.subscribe((event, payload) => {
    events.push({ event, payload });
    if (event === 'formation.changed') {
      const p = payload as EventMap['formation.changed'];
      if (!view || p.version > (view.version ?? 0)) {
        const next = applyFormationChange(view, p);
        if (next) view = next;
        else if (view) missed++;
      }
    }
    if (event === 'capsule.stateChanged' && view) {
      // As the renderer folds it (absent fields go: JSON has no undefined).
      const p = payload as EventMap['capsule.stateChanged'];
      view = {
        ...view,
        capsules: view.capsules.map((c) =>
          c.id === p.id ? (JSON.parse(JSON.stringify(withCapsuleState(c, p))) as typeof c) : c,
        ),
      };
    }
    for (const w of [...waiters]) w(event, payload);
  });
  await core.ready;
  // The workspace opened at start went out before this subscription: start from formation.get.
  view ??= await core.invoke('formation.get', {}).catch(() => undefined);
  const studio: TestStudio = {
    core,
    home,
    workspace,
    events,
    view: () => view,
    get missed() {
      return missed;
    },
    nextView(match, timeoutMs = 5000) {
      return studio.next('formation.changed', () => view !== undefined && match(view), timeoutMs).then(() => view!);
    },
    next(event, match, timeoutMs = 5000) {
      return new Promise((res, rej) => {
        const timer = setTimeout(
          () => (waiters.delete(w), rej(new Error(`no ${event} within ${timeoutMs} ms`))),
          timeoutMs,
        );
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
  return studio;
}
