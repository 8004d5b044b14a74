import { lazy } from 'react';
export { GraphCanvas } from './GraphCanvas';
export { GraphPalette } from './GraphPalette';
import { lazyWhen } from '../../ui/lazyWhen';

// The dialogs load when first opened (see lazyWhen).
export const RemoteUrlDialog = lazyWhen(
  (s) => s.remotePrompt !== null,
  () => import('./GraphDialogs').then((m) => m.RemoteUrlDialog),
);
export const ToolServerDialog = lazyWhen(
  (s) => s.toolServerPrompt !== null,
  () => import('./ToolServerDialog').then((m) => m.ToolServerDialog),
);
export const RemoveDialog = lazyWhen(
  (s) => !!s.pendingRemoval,
  () => import('./GraphDialogs').then((m) => m.RemoveDialog),
);
export { ReactFlowProvider as GraphProvider } from '@xyflow/react';
export { autoLayoutAll } from './layoutActions';
export { useFocusNode } from './useFocusNode';
export { useSelectAll } from './useSelectAll';
export { useNewNodeSpot } from './useNewNodeSpot';
export { FIT_VIEW_ANIMATED } from './fitView';
// The toolbar's menus use it; it loads on the first menu opened.
export const CanvasMenu = lazy(() => import('./CanvasMenu').then((m) => ({ default: m.CanvasMenu })));
export type { MenuItem } from './CanvasMenu';
