import { lazy, memo, Suspense, type ComponentType } from 'react';

// The node and edge kinds a new formation does not have (remote agents, external callers, tool
// servers and their tool edges) load the first time one is drawn, keeping the window's first
// JavaScript small. Until then the node is an empty box (no edge reaches it yet, as it has no
// handles): the chunk comes from the local core within a frame or two.

/** Stands in for the component `load` brings, with the same props. */
function lazyKind<C extends ComponentType<never>>(load: () => Promise<C>): C {
  const Lazy = lazy(async () => ({ default: (await load()) as unknown as ComponentType<object> }));
  function LazyKind(props: object) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return memo(LazyKind) as unknown as C;
}

export const RemoteNode = lazyKind(() => import('./RemoteNode').then((m) => m.RemoteNode));
export const ExternalNode = lazyKind(() => import('./ExternalNode').then((m) => m.ExternalNode));
export const ToolServerNode = lazyKind(() => import('./ToolServerNode').then((m) => m.ToolServerNode));
export const ToolEdge = lazyKind(() => import('./ToolEdge').then((m) => m.ToolEdge));
