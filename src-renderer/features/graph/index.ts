export { GraphCanvas } from './GraphCanvas';
export { GraphPalette } from './GraphPalette';
export { RemoteUrlDialog, RemoveDialog } from './GraphDialogs';
export { ReactFlowProvider as GraphProvider } from '@xyflow/react';
export { autoLayoutAll } from './layoutActions';
export { useFocusNode } from './useFocusNode';
export { useSelectAll } from './useSelectAll';
export { FIT_VIEW_ANIMATED } from './fitView';
export { CanvasMenu, type MenuItem } from './CanvasMenu';
