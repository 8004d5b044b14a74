import { WS_PATH, type CapsuleBridge, type CoreClient } from '../../src-shared/contract';
import { createIpcClient } from './ipc';
import { askMoved } from './moved';
import { createWsClient } from './ws';

export { createIpcClient } from './ipc';
export { createWsClient, type WsClientOptions } from './ws';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a browser (web shell). */
    capsule?: CapsuleBridge;
  }
}

/**
 * The CoreClient for this window: the preload bridge inside Electron, else the web shell's
 * WebSocket on the page's own host. The only place the renderer looks at `window.capsule`.
 * `onMoved`: the web shell was started again at another address (the page offers it).
 */
export function createCoreClient(
  onConnectionChange?: (connected: boolean) => void,
  onMoved?: (url: string) => void,
): CoreClient {
  if (window.capsule) {
    onConnectionChange?.(true);
    return createIpcClient(window.capsule);
  }
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const origin = window.location.origin;
  return createWsClient({
    url: `${scheme}//${window.location.host}${WS_PATH}`,
    onConnectionChange,
    findMoved: () => askMoved(origin),
    onMoved,
  });
}
