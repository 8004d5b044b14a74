import type { FlowEdge, FlowNode } from '../graphModel';
import type { HistoryStep } from '../history';
import type { EdgeChange, NodeChange, XYPosition } from '@xyflow/react';

// The shape of the store's graph slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

export interface PendingRemoval {
  nodeIds: string[];
}

export interface GraphSlice {
  flowNodes: FlowNode[];
  flowEdges: FlowEdge[];
  /** The capsule or remote whose details the side panel shows. */
  selectedId: string | null;
  pendingRemoval: PendingRemoval | null;
  /** Where a remote agent will go once the user gives its URL. */
  remotePrompt: XYPosition | null;
  canUndo: boolean;
  canRedo: boolean;
  onNodesChange(changes: NodeChange<FlowNode>[]): void;
  onEdgesChange(changes: EdgeChange<FlowEdge>[]): void;
  select(id: string | null): void;
  addCapsuleAt(kind: 'orchestrator' | 'worker', position: XYPosition): Promise<void>;
  addRemoteAt(url: string, position: XYPosition): Promise<boolean>;
  moveNodes(moves: { id: string; from: XYPosition; to: XYPosition }[]): Promise<void>;
  connect(source: string, target: string): Promise<void>;
  disconnect(edgeIds: string[]): Promise<void>;
  askRemoteUrl(position: XYPosition | null): void;
  askRemoval(nodeIds: string[]): void;
  cancelRemoval(): void;
  confirmRemoval(): Promise<void>;
  /** A copy of the capsule (same manifest, new name) beside it, selected; one undo step. */
  duplicateCapsule(id: string): Promise<void>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  resetHistory(): void;
  /** Runs one edit and records its undo step; a failure becomes a notice (false). */
  recordStep(what: string, run: () => Promise<HistoryStep | null>): Promise<boolean>;
  /** Narrows which tools of a tool server the edge lets its capsule call (null: all); one undo step. */
  setEdgeTools(edgeId: string, tools: string[] | null): Promise<void>;
}

/** The actions whose code loads on first use (graphEdits.ts, see lazyActions.ts). */
export const GRAPH_EDITS = [
  'addRemoteAt',
  'connect',
  'disconnect',
  'confirmRemoval',
  'duplicateCapsule',
  'setEdgeTools',
] as const;
