import type { Socket } from 'node:net';

// A connection past the door's cap gets an answer, not a reset: HTTP 503 with Retry-After and a
// JSON-RPC error whose id is null (the request was never read, so its id is unknown).

/** Seconds a turned-away caller is told to wait before trying again. */
export const RETRY_AFTER_S = 1;
/** How long a turned-away socket may stay open for its caller to read the answer and close. */
const LINGER_MS = 2000;
/** The door's own busy error: in the A2A range, with an ErrorInfo naming it (as peer_not_accepted). */
export const DOOR_BUSY_CODE = -32011;

export interface TurnedAway {
  /** Closes the sockets still being turned away (the door is closing). */
  dispose(): void;
}

/** The JSON-RPC error a caller turned away reads (id null: its request was never read). */
export function busyBody(maxConnections: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: DOOR_BUSY_CODE,
      message: `door_busy: this door serves at most ${maxConnections} connections at once; retry after ${RETRY_AFTER_S} s`,
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'DOOR_BUSY',
          domain: 'capsule.studio',
          metadata: { max_connections: String(maxConnections) },
        },
      ],
    },
  });
}

function busyAnswer(maxConnections: number): string {
  const body = busyBody(maxConnections);
  return `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: ${RETRY_AFTER_S}\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * Answers 503 at once and closes the socket's sending side, then reads (and drops) what the caller
 * still sends until it closes too. Closing outright with its request unread would make the system
 * reset the connection, and the caller could lose the answer with it. A caller that never closes
 * is cut off after LINGER_MS.
 */
export function turnAway(socket: Socket, maxConnections: number, turning: Set<Socket>): void {
  turning.add(socket);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.on('error', () => undefined);
  socket.once('close', () => {
    clearTimeout(timer);
    turning.delete(socket);
  });
  // The HTTP server lets a caller half-close; here its end is the end of the exchange.
  socket.once('end', () => socket.destroy());
  socket.resume();
  socket.end(busyAnswer(maxConnections));
}
