import type { Manifest } from '../../src-shared/manifest';

// lifecycle.task_acceptance: `queue` runs one task at a time in arrival order with at most
// queue_depth waiting; `single` takes a task only when none runs or waits; `none` takes none.
// A task waiting for its caller's input is parked: it holds no running slot (the next task
// starts), but counts against queue_depth, so parked tasks stay bounded too. Its input puts it
// at the front of the line.

export interface TaskQueue {
  running: string | null;
  readonly waiting: string[];
  /** Why a new task cannot be taken now, or undefined when it can. */
  refusal(): string | undefined;
  enqueue(id: string): void;
  /** The running task waits for input: the slot is free for the next one. */
  park(id: string): void;
  /** A parked task got its input: it runs next, before every waiting task. */
  unpark(id: string): void;
  /** Tasks parked waiting for input. */
  readonly parked: ReadonlySet<string>;
  /** The next task to start, when the running slot is free. */
  next(): string | undefined;
  remove(id: string): boolean;
  busy(): boolean;
}

export function createTaskQueue(lifecycle: Manifest['lifecycle']): TaskQueue {
  const acceptance = lifecycle?.task_acceptance ?? 'queue';
  const depth = acceptance === 'single' ? 0 : (lifecycle?.queue_depth ?? 8);
  const waiting: string[] = [];
  const parked = new Set<string>();
  const q: TaskQueue = {
    running: null,
    waiting,
    parked,
    refusal() {
      if (acceptance === 'none') return 'this capsule accepts no tasks (lifecycle.task_acceptance: none)';
      const held = (q.running ? 1 : 0) + waiting.length + parked.size;
      if (held < depth + 1) return undefined;
      const input = parked.size ? `, ${parked.size} waiting for input` : '';
      return acceptance === 'single'
        ? `busy: a task is already ${q.running || waiting.length ? 'running' : 'waiting for input'} (lifecycle.task_acceptance: single)`
        : `queue full (queue_depth ${depth}): ${q.running ? 'one task running and ' : ''}${waiting.length} waiting${input}`;
    },
    enqueue(id) {
      waiting.push(id);
    },
    park(id) {
      if (q.running === id) q.running = null;
      parked.add(id);
    },
    unpark(id) {
      if (!parked.delete(id)) return;
      waiting.unshift(id);
    },
    next() {
      if (q.running !== null) return undefined;
      const id = waiting.shift();
      if (id !== undefined) q.running = id;
      return id;
    },
    /** Takes the task out of the line; true only when it was waiting for the slot. */
    remove(id) {
      parked.delete(id);
      const i = waiting.indexOf(id);
      if (i < 0) return false;
      waiting.splice(i, 1);
      return true;
    },
    busy: () => q.running !== null || waiting.length > 0,
  };
  return q;
}
