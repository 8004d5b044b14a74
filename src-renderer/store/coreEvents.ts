import type { CoreClient } from '../../src-shared/contract';
import { emptyBatch, type EventBatch } from './fold';

/** Schedules a flush on the next frame; falls back to a timer where frames do not run (hidden tab). */
function nextFrame(run: () => void): void {
  let done = false;
  const once = () => {
    if (!done) {
      done = true;
      run();
    }
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(once);
  setTimeout(once, 100);
}

/**
 * The one subscription from core events to the store, outside React. Events are queued and
 * applied once per animation frame in the order they came (a whole formation supersedes what came before it).
 */
export function connectCoreEvents(client: CoreClient, ingest: (batch: EventBatch) => void): () => void {
  let batch = emptyBatch();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const b = batch;
    batch = emptyBatch();
    ingest(b);
  };
  const queue = (add: (b: EventBatch) => void) => {
    add(batch);
    if (!scheduled) {
      scheduled = true;
      nextFrame(flush);
    }
  };
  const offs = [
    client.on('formation.changed', (p) =>
      queue((b) => {
        if (p.full) {
          // A whole formation carries every capsule's state: what came before it is superseded.
          b.formations = [];
          b.capsuleStates = [];
        }
        b.formations.push({ change: p, after: b.capsuleStates.length });
      }),
    ),
    client.on('capsule.stateChanged', (p) => queue((b) => b.capsuleStates.push(p))),
    client.on('task.updated', (p) => queue((b) => b.tasks.push(p))),
    client.on('trace.appended', (p) => queue((b) => b.traces.push(p))),
    client.on('delegation.updated', (p) => queue((b) => b.delegations.push(p))),
    client.on('task.progressed', (p) => queue((b) => b.progress.push(p))),
    client.on('mcp.called', (p) => queue((b) => b.toolCalls.push(p))),
    client.on('manifest.conflicted', (p) => queue((b) => b.conflicts.push(p))),
    client.on('notice.raised', (p) => queue((b) => b.notices.push(p))),
    client.on('breakpoints.changed', (p) => queue((b) => void (b.breakpoints = p))),
  ];
  return () => offs.forEach((off) => off());
}
