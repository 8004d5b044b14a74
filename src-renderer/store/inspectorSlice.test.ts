import { afterEach, expect, it } from 'vitest';
import type { FlowNode } from './graphModel';
import { useStudio } from './index';

// Opening a child task from its parent: the worker's capsule is selected (in the store and on the
// canvas), its Tasks tab shows, and that task's details are open.

const initial = useStudio.getState();
afterEach(() => useStudio.setState(initial, true));

it('opens a task in its capsule, moving the canvas selection there', () => {
  const node = (id: string, selected: boolean) =>
    ({ id, type: 'capsule', position: { x: 0, y: 0 }, data: {}, selected }) as unknown as FlowNode;
  const researcher = node('researcher', false);
  useStudio.setState({
    selectedId: 'coordinator',
    sideTab: 'trace',
    flowNodes: [node('coordinator', true), researcher],
    refreshTask: async () => {},
  });
  useStudio.getState().openTask('researcher', 'tsk_child');
  const s = useStudio.getState();
  expect(s.selectedId).toBe('researcher');
  expect(s.sideTab).toBe('tasks');
  expect(s.inspectedTasks.researcher).toBe('tsk_child');
  expect(s.flowNodes.map((n) => [n.id, n.selected])).toEqual([
    ['coordinator', false],
    ['researcher', true],
  ]);
  // Closing the details leaves the tab and the selection as they are.
  s.inspectTask('researcher', null);
  expect(useStudio.getState()).toMatchObject({
    selectedId: 'researcher',
    sideTab: 'tasks',
    inspectedTasks: { researcher: undefined },
  });
  expect(researcher).not.toBe(useStudio.getState().flowNodes[1]);
});
