import {
  useCallback,
  useRef,
  useState,
  type DragEvent,
  type ReactNode,
  type MouseEvent as ReactMouseEvent,
} from 'react';
import {
  applyNodeChanges,
  Background,
  BackgroundVariant,
  Controls,
  MarkerType,
  MiniMap,
  Panel,
  ReactFlow,
  useReactFlow,
  useStore,
  type Connection,
  type IsValidConnection,
  type Node,
  type NodeChange,
  type OnBeforeDelete,
  type OnConnectStart,
  type OnNodeDrag,
  type XYPosition,
} from '@xyflow/react';
import { useStudio, type FlowEdge, type FlowNode } from '../../store';
import { useColorMode } from '../../ui/useTheme';
import { CapsuleNode } from './CapsuleNode';
import { CompactContext, isCompact } from './compact';
import { PermissionEdge } from './PermissionEdge';
import { ExternalNode, RemoteNode, ToolEdge, ToolServerNode } from './lazyKinds';
import { isPaletteKind, PALETTE_MIME } from './palette';
import { FIT_VIEW, FIT_VIEW_ANIMATED } from './fitView';
import { autoLayoutAll } from './layoutActions';
import { useAutoPlace } from './useAutoPlace';
import { useCanvasMenu } from './useCanvasMenu';
import { useFocusNode } from './useFocusNode';
import { useMinimap } from './useMinimap';
import { minimapCorner, MINIMAP_SIZE } from './minimapCorner';
import { lazyWhen } from '../../ui/lazyWhen';

// The canvas's replay mark loads with the first replay shown.
const ReplayMark = lazyWhen(
  (s) => !!s.replay?.run,
  () => import('./ReplayMark').then((m) => m.ReplayMark),
);

// Module scope: xyflow re-mounts every node when these objects change identity.
const nodeTypes = { capsule: CapsuleNode, remote: RemoteNode, external: ExternalNode, toolServer: ToolServerNode };
const edgeTypes = { permission: PermissionEdge, tool: ToolEdge };
const defaultEdgeOptions = { markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 } };
const proOptions = { hideAttribution: true };
const DELETE_KEYS = ['Delete', 'Backspace'];
/** Shift-click adds a node to the selection (as do Ctrl and Cmd); Shift-drag draws a selection box. */
const MULTI_SELECT_KEYS = ['Shift', 'Meta', 'Control'];
/** Minimap nodes take the colour of the node card's top border (orchestrator, worker, remote). */
const minimapColor = (n: Node) => {
  if (n.type === 'remote') return 'var(--busy)';
  if (n.type === 'external') return 'var(--text-faint)';
  if (n.type === 'toolServer') return 'var(--tool)';
  return useStudio.getState().capsules[n.id]?.role === 'orchestrator' ? 'var(--accent)' : 'var(--ok)';
};

const noCorner = () => 'bottom-right' as const;

/** A change xyflow sends for every pointer move of a drag. */
const isDragMove = (c: NodeChange<FlowNode>) => c.type === 'position' && c.dragging === true;

/**
 * The formation canvas: nodes and edges from the store, every edit goes through a store action.
 * `children` are drawn on the canvas under its controls (the shell puts the runtime groups there).
 */
export function GraphCanvas({ children }: { children?: ReactNode }) {
  const storeNodes = useStudio((s) => s.flowNodes);
  const edges = useStudio((s) => s.flowEdges);
  const empty = useStudio((s) => s.capsuleIds.length === 0 && s.remoteIds.length === 0);
  const onEdgesChange = useStudio((s) => s.onEdgesChange);
  const colorMode = useColorMode();
  const compact = useStore(isCompact);
  // While a node is dragged its moving position lives here, not in the store: a store update
  // runs every store subscriber in the Studio on every pointer move. The drop hands the final
  // position to the store (and onNodeDragStop saves it), so the store never misses a move.
  const [dragNodes, setDragNodes] = useState<FlowNode[] | null>(null);
  const nodes = dragNodes ?? storeNodes;

  const onNodesChange = useCallback((changes: NodeChange<FlowNode>[]) => {
    if (changes.every(isDragMove)) {
      setDragNodes((prev) => applyNodeChanges(changes, prev ?? useStudio.getState().flowNodes));
      return;
    }
    useStudio.getState().onNodesChange(changes);
    if (changes.some((c) => c.type === 'position' && !c.dragging)) setDragNodes(null);
    else setDragNodes((prev) => prev && applyNodeChanges(changes, prev));
  }, []);
  const { screenToFlowPosition, fitView } = useReactFlow<FlowNode, FlowEdge>();
  const dragOrigins = useRef(new Map<string, XYPosition>());
  useAutoPlace();
  const [minimap, toggleMinimap] = useMinimap(storeNodes.length);
  const replaying = useStudio((s) => s.replay !== null);
  // The replay's mark holds the top left while a replay is on.
  const corner = useStore(minimap ? minimapCorner : noCorner);
  const minimapAt = corner === 'top-left' && replaying ? 'under' : corner;
  const focusNode = useFocusNode();
  const onMinimapNodeClick = useCallback((_e: ReactMouseEvent, n: Node) => focusNode(n.id), [focusNode]);
  const menu = useCanvasMenu();

  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(PALETTE_MIME)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  }, []);

  const onDrop = useCallback(
    (e: DragEvent) => {
      const kind = e.dataTransfer.getData(PALETTE_MIME);
      if (!isPaletteKind(kind)) return;
      e.preventDefault();
      // Centre the node card under the pointer rather than hanging it from its corner.
      const p = screenToFlowPosition({ x: e.clientX, y: e.clientY });
      const position = { x: Math.round(p.x - 116), y: Math.round(p.y - 40) };
      const s = useStudio.getState();
      if (kind === 'remote') s.askRemoteUrl(position);
      else if (kind === 'toolServer') s.askToolServer({ position });
      else void s.addCapsuleAt(kind, position);
    },
    [screenToFlowPosition],
  );

  const onNodeDragStart: OnNodeDrag<FlowNode> = useCallback((_e, _node, dragged) => {
    dragOrigins.current = new Map(dragged.map((n) => [n.id, { ...n.position }]));
  }, []);

  const onNodeDragStop: OnNodeDrag<FlowNode> = useCallback((_e, _node, dragged) => {
    const origins = dragOrigins.current;
    const moves = dragged.map((n) => ({
      id: n.id,
      from: origins.get(n.id) ?? n.position,
      to: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
    }));
    void useStudio.getState().moveNodes(moves);
  }, []);

  // Where the user started the drag: xyflow turns a drag from a worker's (target) handle onto an
  // orchestrator into the connection orchestrator -> worker, which is not what the gesture says.
  const connectFrom = useRef<{ nodeId: string | null; handleType: string | null }>({ nodeId: null, handleType: null });
  const onConnectStart: OnConnectStart = useCallback((_e, params) => {
    connectFrom.current = { nodeId: params.nodeId, handleType: params.handleType };
  }, []);
  const onConnect = useCallback((c: Connection) => {
    const s = useStudio.getState();
    if (connectFrom.current.handleType === 'target') {
      const orch = s.capsules[c.source]?.name ?? c.source;
      const worker = s.capsules[c.target]?.name ?? s.remotes[c.target]?.card?.name ?? c.target;
      s.notify(
        'warning',
        `Not connected: delegation goes from an orchestrator to a worker. To let ${orch} delegate to ${worker}, drag from ${orch}'s handle on its right onto ${worker}.`,
      );
      return;
    }
    void s.connect(c.source, c.target);
  }, []);

  const isValidConnection: IsValidConnection<FlowEdge> = useCallback((c) => {
    const s = useStudio.getState();
    // Any capsule may be given a tool server (from its tools handle); only orchestrators delegate.
    if (s.toolServers[c.target]) return !!s.capsules[c.source];
    return (
      c.source !== c.target &&
      c.sourceHandle !== 'tools' &&
      s.capsules[c.source]?.role === 'orchestrator' &&
      !c.target.startsWith('external:') &&
      !s.capsules[c.target]?.role?.startsWith('orch')
    );
  }, []);

  // Deletes never happen inside xyflow: nodes ask for confirmation, edges become edge.disconnect,
  // and the canvas redraws from the formation the core sends back.
  const onBeforeDelete: OnBeforeDelete<FlowNode, FlowEdge> = useCallback(async ({ nodes: ns, edges: es }) => {
    const s = useStudio.getState();
    const removable = ns.filter((n) => n.type !== 'external');
    if (removable.length > 0) s.askRemoval(removable.map((n) => n.id));
    else if (es.length > 0) void s.disconnect(es.map((e) => e.id));
    return false;
  }, []);

  return (
    <div className="graph" onDragOver={onDragOver} onDrop={onDrop} onKeyDown={menu.onKeyDown} data-testid="canvas">
      {empty ? (
        <div className="graph-empty">
          <div>
            <strong>An empty formation</strong>
            Drag an Orchestrator and a Worker from the palette to begin.
          </div>
        </div>
      ) : null}
      <CompactContext.Provider value={compact}>
        <ReactFlow<FlowNode, FlowEdge>
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          defaultEdgeOptions={defaultEdgeOptions}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onNodeDragStart={onNodeDragStart}
          onNodeDragStop={onNodeDragStop}
          onConnectStart={onConnectStart}
          onConnect={onConnect}
          isValidConnection={isValidConnection}
          onBeforeDelete={onBeforeDelete}
          deleteKeyCode={DELETE_KEYS}
          multiSelectionKeyCode={MULTI_SELECT_KEYS}
          {...menu.handlers}
          onlyRenderVisibleElements
          colorMode={colorMode}
          proOptions={proOptions}
          fitView
          fitViewOptions={FIT_VIEW}
          minZoom={0.1}
          aria-label="Formation canvas"
        >
          <Background variant={BackgroundVariant.Dots} gap={20} size={1.5} />
          {children}
          <Controls showInteractive={false} position="bottom-left" />
          <ReplayMark />
          <Panel position="top-right" className="graph-tools">
            <button
              type="button"
              className="btn"
              disabled={empty}
              onClick={() => void autoLayoutAll()}
              title="Arrange every node: orchestrators left of their workers (one undo step)"
            >
              Auto-layout
            </button>
            <button
              type="button"
              className="btn"
              aria-pressed={minimap}
              onClick={toggleMinimap}
              title={minimap ? 'Hide the minimap' : 'Show the minimap'}
            >
              Minimap
            </button>
            <button type="button" className="btn" onClick={() => void fitView(FIT_VIEW_ANIMATED)}>
              Fit view
            </button>
          </Panel>
          {minimap ? (
            <MiniMap
              pannable
              zoomable
              position={minimapAt === 'top-left' ? 'top-left' : 'bottom-right'}
              className={minimapAt === 'under' ? 'minimap-under' : undefined}
              ariaLabel="Minimap"
              nodeColor={minimapColor}
              nodeBorderRadius={4}
              style={MINIMAP_SIZE}
              onNodeClick={onMinimapNodeClick}
            />
          ) : null}
        </ReactFlow>
      </CompactContext.Provider>
      {menu.element}
    </div>
  );
}
