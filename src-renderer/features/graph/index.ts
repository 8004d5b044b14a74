export { GraphCanvas } from './GraphCanvas';
export { GraphPalette } from './GraphPalette';
export { RemoteUrlDialog, RemoveDialog } from './GraphDialogs';
export { ReactFlowProvider as GraphProvider } from '@xyflow/react';
