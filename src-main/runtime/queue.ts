import type { Manifest } from '../../src-shared/manifest';

// lifecycle.task_acceptance: `queue` runs one task at a time in arrival order with at most
// queue_depth waiting; `single` takes a task only when none runs or waits; `none` takes none.

export interface TaskQueue {
  running: string | null;
  readonly waiting: string[];
  /** Why a new task cannot be taken now, or undefined when it can. */
  refusal(): string | undefined;
  enqueue(id: string): void;
  /** The next task to start, when the running slot is free. */
  next(): string | undefined;
  remove(id: string): boolean;
  busy(): boolean;
}

export function createTaskQueue(lifecycle: Manifest['lifecycle']): TaskQueue {
  const acceptance = lifecycle?.task_acceptance ?? 'queue';
  const depth = acceptance === 'single' ? 0 : (lifecycle?.queue_depth ?? 8);
  const waiting: string[] = [];
  const q: TaskQueue = {
    running: null,
    waiting,
    refusal() {
      if (acceptance === 'none') return 'this capsule accepts no tasks (lifecycle.task_acceptance: none)';
      const held = (q.running ? 1 : 0) + waiting.length;
      if (held < depth + 1) return undefined;
      return acceptance === 'single'
        ? 'busy: a task is already running (lifecycle.task_acceptance: single)'
        : `queue full (queue_depth ${depth}): ${q.running ? 'one task running and ' : ''}${waiting.length} waiting`;
    },
    enqueue(id) {
      waiting.push(id);
    },
    next() {
      if (q.running !== null) return undefined;
      const id = waiting.shift();
      if (id !== undefined) q.running = id;
      return id;
    },
    remove(id) {
      const i = waiting.indexOf(id);
      if (i < 0) return false;
      waiting.splice(i, 1);
      return true;
    },
    busy: () => q.running !== null || waiting.length > 0,
  };
  return q;
}
