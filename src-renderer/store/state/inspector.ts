// The shape of the store's inspector slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

import type { SideTab } from '../../../src-shared/contract';
export type { SideTab };

export interface InspectorSlice {
  sideTab: SideTab;
  /** The task whose details are open in each capsule's Tasks tab. */
  inspectedTasks: Record<string, string | undefined>;
  setSideTab(tab: SideTab): void;
  /** Opens a task's details in its capsule's Tasks tab (null closes them). */
  inspectTask(capsuleId: string, taskId: string | null): void;
  /** Selects a capsule and opens one of its tasks there (a delegation's child task, from its parent). */
  openTask(capsuleId: string, taskId: string): void;
}
