import type { SliceCreator } from './types';

/** The side panel's tabs for a capsule. */
export type SideTab = 'manifest' | 'tasks' | 'trace';

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

export const createInspectorSlice: SliceCreator<InspectorSlice> = (set, get) => ({
  sideTab: 'manifest',
  inspectedTasks: {},
  setSideTab: (sideTab) => set({ sideTab }),
  inspectTask: (capsuleId, taskId) => set((s) => ({ inspectedTasks: { ...s.inspectedTasks, [capsuleId]: taskId ?? undefined } })),
  openTask(capsuleId, taskId) {
    set((s) => ({
      selectedId: capsuleId,
      // The canvas selects the node too, so a click on the node left behind selects that one again.
      flowNodes: s.flowNodes.map((n) => (!!n.selected === (n.id === capsuleId) ? n : { ...n, selected: n.id === capsuleId })),
      sideTab: 'tasks',
      inspectedTasks: { ...s.inspectedTasks, [capsuleId]: taskId },
    }));
    void get().refreshTask(capsuleId, taskId);
  },
});
