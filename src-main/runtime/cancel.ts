import { isTerminal, taskNotCancelable, taskNotFound } from '../../src-shared/a2a';
import { endTask, traceTask, type SessionCore } from './core';
import { statusMessage, type CancelAnswer, type LiveTask } from './tasks';
import type { InFlightWork, ResidueItem } from './tool-types';

// "Cancel means stopped": the driver turn is aborted at once, every tracked piece of work is
// canceled and what it leaves running is reported as residue. A late result never overwrites it.

async function collectResidue(works: InFlightWork[]): Promise<{ inFlight: string[]; residue: ResidueItem[] }> {
  const inFlight = works.map((w) => {
    try {
      return w.describe();
    } catch {
      return 'work';
    }
  });
  const results = await Promise.all(works.map((w) => w.cancel().catch(() => undefined)));
  return { inFlight, residue: results.filter((r): r is ResidueItem => r !== undefined) };
}

async function cancelLive(core: SessionCore, t: LiveTask, by: string): Promise<CancelAnswer> {
  const queued = core.queue.remove(t.id);
  const interrupted = queued ? 'queue' : t.waiting;
  // What was in flight is read before the abort, which lets tools start unwinding at once.
  const works = [...t.works];
  t.works.clear();
  t.controller.abort();
  const { inFlight, residue } = await collectResidue(works);
  if (residue.length) {
    core.registry.addArtifact(t, {
      artifactId: 'residue',
      name: 'residue',
      parts: residue.map((data) => ({ data, mediaType: 'application/json' })),
    });
  }
  // A harness that had to be killed says so in the terminal status (docs/door.md, cancel).
  const note = works.map((w) => w.canceledStatus?.()).find(Boolean);
  core.registry.setStatus(t, 'TASK_STATE_CANCELED', note ? statusMessage(t.id, t.contextId, note) : undefined);
  traceTask(core, t, { event_type: 'task_canceled', interrupted, in_flight: inFlight, residue, by });
  const task = core.registry.toTask(t);
  endTask(core, t, 'canceled', 'TASK_STATE_CANCELED');
  return { task, residue };
}

/** CancelTask: throws -32001 for an unknown task, -32002 for a terminal one. */
export function cancelTask(core: SessionCore, id: string, by = 'client'): Promise<CancelAnswer> {
  const t = core.registry.live.get(id);
  if (!t) {
    const known = core.registry.get(id, 0);
    if (known && isTerminal(known.status.state)) throw taskNotCancelable(id, known.status.state);
    throw taskNotFound(id);
  }
  // A cancel already under way answers the same way.
  return (t.canceling ??= cancelLive(core, t, by));
}

/** Every task the session still holds (running, queued, input-required), queued ones first. */
export function cancelableIds(core: SessionCore): string[] {
  const queued = [...core.queue.waiting];
  const rest = [...core.registry.live.keys()].filter((id) => !queued.includes(id));
  return [...queued, ...rest];
}
