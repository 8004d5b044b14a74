import type { TaskState } from '../../../src-shared/a2a';
import type { EdgeFlow } from '../flowModel';

// The shape of the store's flow slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

/** What a capsule is doing now, and what it answered last. */
export interface NodeActivity {
  current?: { taskId: string; state?: TaskState; turn: number; text: string; waiting?: string };
  last?: { taskId: string; state: TaskState; text: string };
}

export interface FlowSlice {
  /** Edge id -> its flow (bounded per edge: see flowModel.ts; one entry per edge that carried work). */
  edgeFlow: Record<string, EdgeFlow>;
  /** Capsule id -> its activity (one entry per capsule of the formation, texts cut to OUTPUT_CHARS). */
  activity: Record<string, NodeActivity>;
}
