import { WS_PATH, type CapsuleBridge, type CoreClient } from '../../src-shared/contract';
import { createIpcClient } from './ipc';
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
 */
export function createCoreClient(onConnectionChange?: (connected: boolean) => void): CoreClient {
  if (window.capsule) {
    onConnectionChange?.(true);
    return createIpcClient(window.capsule);
  }
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return createWsClient({ url: `${scheme}//${window.location.host}${WS_PATH}`, onConnectionChange });
}
