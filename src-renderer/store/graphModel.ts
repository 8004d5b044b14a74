import type { Edge, Node } from '@xyflow/react';
import type { CapsuleView, EdgeView, RemoteView, ToolServerView } from '../../src-shared/contract';

// How the formation becomes xyflow nodes and edges. Nodes carry ids only: the node components
// read the live capsule/remote from the store, so the node array changes only when the set of
// nodes, their positions or the selection change.

export type CapsuleFlowNode = Node<{ kind: 'capsule' }, 'capsule'>;
export type RemoteFlowNode = Node<{ kind: 'remote' }, 'remote'>;
export type ExternalFlowNode = Node<{ kind: 'external'; address: string }, 'external'>;
export type ToolServerFlowNode = Node<{ kind: 'toolServer' }, 'toolServer'>;
export type FlowNode = CapsuleFlowNode | RemoteFlowNode | ExternalFlowNode | ToolServerFlowNode;
export type FlowEdge = Edge<{ address: string; targetKind: EdgeView['targetKind']; tools?: string[] }>;

export interface FlowInput {
  capsules: Record<string, CapsuleView>;
  capsuleIds: string[];
  remotes: Record<string, RemoteView>;
  remoteIds: string[];
  toolServers?: Record<string, ToolServerView>;
  toolServerIds?: string[];
  edgeViews: EdgeView[];
  flowNodes: FlowNode[];
  flowEdges: FlowEdge[];
}

const EXTERNAL_OFFSET = { x: 320, y: 150 };
/** Room a node takes on the canvas, generously (capsule cards are ~232 x 180, external ones ~232 x 90). */
const NODE_BOX = { w: 250, h: 190 };
const EXTERNAL_BOX = { w: 250, h: 100 };

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * A spot for an external-address node near `wanted` that covers no other node: tried downwards,
 * then in the next column to the right, so it is never drawn on top of a capsule.
 */
export function freeSpot(wanted: { x: number; y: number }, taken: readonly Box[]): { x: number; y: number } {
  for (let col = 0; col < 20; col++) {
    for (let row = 0; row < 20; row++) {
      const spot = { x: wanted.x + col * NODE_BOX.w, y: wanted.y + row * EXTERNAL_BOX.h };
      if (!taken.some((t) => overlaps({ ...spot, ...EXTERNAL_BOX }, t))) return spot;
    }
  }
  return wanted;
}

/** Reuses the old node object when nothing the canvas draws changed. */
function keep<T extends FlowNode>(old: FlowNode | undefined, next: T): T {
  if (old && old.type === next.type && old.position.x === next.position.x && old.position.y === next.position.y)
    return old as T;
  if (old) return { ...next, selected: old.selected, measured: old.measured } as T;
  return next;
}

/** Builds the canvas nodes and edges from the formation, keeping unchanged objects. */
export function deriveFlow(input: FlowInput): { flowNodes: FlowNode[]; flowEdges: FlowEdge[] } {
  const old = new Map(input.flowNodes.map((n) => [n.id, n]));
  const nodes: FlowNode[] = [];
  for (const id of input.capsuleIds) {
    const c = input.capsules[id];
    const prev = old.get(id);
    // A node being dragged keeps the position under the pointer until the drop lands.
    const position = prev?.dragging ? prev.position : c.position;
    nodes.push(keep(prev, { id, type: 'capsule', position, data: { kind: 'capsule' } } as CapsuleFlowNode));
  }
  for (const id of input.remoteIds) {
    const r = input.remotes[id];
    const prev = old.get(id);
    const position = prev?.dragging ? prev.position : r.position;
    nodes.push(keep(prev, { id, type: 'remote', position, data: { kind: 'remote' } } as RemoteFlowNode));
  }
  // Tool servers: formation.yaml places them; one only manifests name (derived) stands below the
  // first capsule that uses it until it is moved (the move adds it to formation.yaml).
  const perUser = new Map<string, number>();
  for (const id of input.toolServerIds ?? []) {
    const t = input.toolServers![id];
    const prev = old.get(id);
    let position = prev?.dragging ? prev.position : t.position;
    if (t.derived && !prev?.dragging) {
      const user = input.edgeViews.find((e) => e.target === id)?.source;
      const src = user ? input.capsules[user] : undefined;
      const k = perUser.get(user ?? '') ?? 0;
      perUser.set(user ?? '', k + 1);
      position =
        prev?.type === 'toolServer'
          ? prev.position
          : { x: (src?.position.x ?? 0) + k * NODE_BOX.w, y: (src?.position.y ?? 0) + NODE_BOX.h + 40 };
    }
    nodes.push(keep(prev, { id, type: 'toolServer', position, data: { kind: 'toolServer' } } as ToolServerFlowNode));
  }
  // Allow entries that match nothing get one node per address, beside the first orchestrator
  // that names it (stacked when one orchestrator names several). Positions are not persisted.
  const perSource = new Map<string, number>();
  const placed = new Set<string>();
  const taken: Box[] = nodes.map((n) => ({ ...n.position, ...NODE_BOX }));
  for (const e of input.edgeViews) {
    if (e.targetKind !== 'external' || placed.has(e.target)) continue;
    placed.add(e.target);
    const src = input.capsules[e.source];
    const k = perSource.get(e.source) ?? 0;
    perSource.set(e.source, k + 1);
    const prev = old.get(e.target);
    const auto = freeSpot(
      { x: (src?.position.x ?? 0) + EXTERNAL_OFFSET.x, y: (src?.position.y ?? 0) + k * 90 - EXTERNAL_OFFSET.y },
      taken,
    );
    const position = prev?.type === 'external' ? prev.position : auto;
    taken.push({ ...position, ...EXTERNAL_BOX });
    nodes.push(
      keep(prev, {
        id: e.target,
        type: 'external',
        position,
        data: { kind: 'external', address: e.address },
      } as ExternalFlowNode),
    );
  }
  const sameNodes = nodes.length === input.flowNodes.length && nodes.every((n, i) => n === input.flowNodes[i]);

  const oldEdges = new Map(input.flowEdges.map((e) => [e.id, e]));
  const edges: FlowEdge[] = input.edgeViews.map((e) => {
    const prev = oldEdges.get(e.id);
    if (
      prev &&
      prev.source === e.source &&
      prev.target === e.target &&
      prev.data?.address === e.address &&
      prev.data?.tools === e.tools
    )
      return prev;
    if (e.targetKind === 'tool_server') {
      return {
        id: e.id,
        source: e.source,
        target: e.target,
        sourceHandle: 'tools',
        type: 'tool',
        // Narrowing its tools changes the edge: it stays selected, its tick list open.
        ...(prev?.selected ? { selected: true } : {}),
        data: { address: e.address, targetKind: e.targetKind, ...(e.tools ? { tools: e.tools } : {}) },
        ariaLabel: `${input.capsules[e.source]?.name ?? e.source} may use tool server ${e.address}`,
      };
    }
    return {
      id: e.id,
      source: e.source,
      target: e.target,
      type: 'permission',
      data: { address: e.address, targetKind: e.targetKind },
      ariaLabel: `Permission from ${input.capsules[e.source]?.name ?? e.source} to ${e.address}`,
    };
  });
  const sameEdges = edges.length === input.flowEdges.length && edges.every((e, i) => e === input.flowEdges[i]);
  return { flowNodes: sameNodes ? input.flowNodes : nodes, flowEdges: sameEdges ? input.flowEdges : edges };
}
