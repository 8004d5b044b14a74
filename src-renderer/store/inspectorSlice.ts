import type { SliceCreator } from './types';
import type { InspectorSlice } from './state/inspector';
export type { SideTab, InspectorSlice } from './state/inspector';

export const createInspectorSlice: SliceCreator<InspectorSlice> = (set, get) => ({
  sideTab: 'manifest',
  inspectedTasks: {},
  setSideTab: (sideTab) => set({ sideTab }),
  inspectTask: (capsuleId, taskId) =>
    set((s) => ({ inspectedTasks: { ...s.inspectedTasks, [capsuleId]: taskId ?? undefined } })),
  openTask(capsuleId, taskId) {
    set((s) => ({
      selectedId: capsuleId,
      // The canvas selects the node too, so a click on the node left behind selects that one again.
      flowNodes: s.flowNodes.map((n) =>
        !!n.selected === (n.id === capsuleId) ? n : { ...n, selected: n.id === capsuleId },
      ),
      sideTab: 'tasks',
      inspectedTasks: { ...s.inspectedTasks, [capsuleId]: taskId },
    }));
    void get().refreshTask(capsuleId, taskId);
  },
});
