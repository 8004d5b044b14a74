import { contextBridge, ipcRenderer } from 'electron';
// The client module only, so the preload bundle stays tiny (no zod).
import {
  IPC_CANCEL_CHANNEL,
  IPC_EVENT_CHANNEL,
  IPC_INVOKE_CHANNEL,
  type CapsuleBridge,
} from '../../../src-shared/contract/client';

// Exposes exactly the contract to the page as `window.capsule`: invoke a command, subscribe to an
// event. No ipcRenderer, no Node, nothing else crosses the bridge.

const listeners = new Map<string, Set<(payload: unknown) => void>>();

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, name: string, payload: unknown) => {
  for (const l of listeners.get(name) ?? []) l(payload);
});

const bridge: CapsuleBridge = {
  invoke: (cmd, input, callId) =>
    ipcRenderer.invoke(IPC_INVOKE_CHANNEL, String(cmd), input, Number.isSafeInteger(callId) ? callId : undefined),
  cancel: (callId) => ipcRenderer.send(IPC_CANCEL_CHANNEL, Number(callId)),
  on(event, listener) {
    const name = String(event);
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  },
};

contextBridge.exposeInMainWorld('capsule', bridge);
