import WebSocket from 'ws';

// Test helpers: a contract WebSocket as an attached Studio opens it, and invoke over it.

/** Opens the socket; resolves with it or rejects with the HTTP status of the refusal. */
export const openSocket = (url: string, headers: Record<string, string>) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });

let nextId = 1;

/** Sends one invoke and resolves with its reply envelope. */
export const invokeOver = (ws: WebSocket, cmd: string, input: unknown = {}) =>
  new Promise<any>((resolve) => {
    const id = nextId++;
    const onMessage = (d: WebSocket.RawData) => {
      const m = JSON.parse(String(d));
      if (m.type !== 'reply' || m.id !== id) return;
      ws.off('message', onMessage);
      resolve(m);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ type: 'invoke', id, cmd, input }));
  });
