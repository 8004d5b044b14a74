import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import { turnAway, type TurnedAway } from './turn-away';

// How long a caller may take to send a request, how long an idle keep-alive connection stays
// open, and how many connections a door holds at once. Without them a caller trickling a body, or
// opening sockets and sending nothing, holds the door's sockets forever. Nothing bounds how long a
// response may take: a blocking SendMessage waits for its task and an SSE stream lives as long as
// its task (streams have their own keepalive and life cap), so the socket's idle timeout stays off.

export interface DoorLimits {
  /** The whole request, headers and body, must arrive within this (HTTP 408 otherwise). */
  requestTimeoutMs: number;
  /** The request's headers must arrive within this. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections served at once; the next ones are answered HTTP 503 with Retry-After and closed. */
  maxConnections: number;
  /**
   * Connections past the cap being answered 503 at once (each for at most a second or two); past
   * these too, a flood's sockets are closed unanswered, so it cannot hold the process's files.
   */
  maxTurningAway: number;
  /** How often the server looks for requests past their timeout (the timeouts' granularity). */
  checkIntervalMs: number;
}

export const DOOR_LIMITS: DoorLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 256,
  maxTurningAway: 1024,
  checkIntervalMs: 1_000,
};

type Append = (event: { event_type: string } & Record<string, unknown>) => unknown;

/**
 * A trace line per kind of refusal, at most one a second: a flood of sockets writes a line with
 * how many there were, not a line each. Only addresses are traced, never a request's content.
 */
function throttled(append: Append, eventType: string, fields: Record<string, unknown>) {
  let last = 0;
  let count = 0;
  let remote: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const write = () => {
    timer = undefined;
    if (!count) return;
    last = Date.now();
    append({ event_type: eventType, count, remote_address: remote, ...fields });
    count = 0;
  };
  return {
    hit(address: string | undefined) {
      count++;
      remote = address;
      const wait = 1000 - (Date.now() - last);
      if (wait <= 0) write();
      else timer ??= setTimeout(write, wait);
    },
    dispose() {
      clearTimeout(timer);
      write();
    },
  };
}

function answerClientError(limits: DoorLimits, err: NodeJS.ErrnoException, socket: Socket): void {
  const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = timeout ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message = timeout
    ? `Request timed out: the door takes a request's headers within ${limits.headersTimeoutMs} ms and all of it within ${limits.requestTimeoutMs} ms`
    : `Bad request: ${STATUS_CODES[status]}`;
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message } });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}

/**
 * The limits of one door: the fastify options that carry its timeouts, and `attach`, which caps
 * its connections once the app exists. Refusals and timeouts are traced through `append`.
 */
export function doorLimits(limits: DoorLimits, append: Append) {
  const refused = throttled(append, 'door_connection_refused', {
    max_connections: limits.maxConnections,
    answered: 503,
  });
  const dropped = throttled(append, 'door_connection_refused', {
    max_connections: limits.maxConnections,
    answered: null,
    max_turning_away: limits.maxTurningAway,
  });
  const timedOut = throttled(append, 'door_request_timeout', {
    request_timeout_ms: limits.requestTimeoutMs,
    headers_timeout_ms: limits.headersTimeoutMs,
  });
  const options = {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: 0,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    // As fastify's own handler answers, with the timeout traced first.
    clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') timedOut.hit(socket.remoteAddress);
      answerClientError(limits, err, socket);
    },
  } satisfies FastifyHttpOptions<Server>;
  return {
    options,
    attach(app: FastifyInstance) {
      const turnedAway = gateConnections(app.server, limits, (socket) => refused.hit(socket.remoteAddress));
      // Past both bounds Node closes the socket as it arrives: the only refusal without an answer.
      app.server.maxConnections = limits.maxConnections + limits.maxTurningAway;
      app.server.on('drop', (data?: { remoteAddress?: string }) => dropped.hit(data?.remoteAddress));
      app.addHook('onClose', async () => {
        turnedAway.dispose();
        refused.dispose();
        dropped.dispose();
        timedOut.dispose();
      });
    },
  };
}

/**
 * Serves at most `maxConnections` sockets; each one past them is answered 503 by turnAway instead
 * of reaching HTTP. Node's own cap (server.maxConnections) would close it unanswered, which a
 * caller sees as a reset ("socket hang up") it cannot tell from a crash. The HTTP server's own
 * connection listener is taken out and called from here, so a turned-away socket never reaches it.
 */
function gateConnections(server: Server, limits: DoorLimits, onRefused: (socket: Socket) => void): TurnedAway {
  const serve = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const turning = new Set<Socket>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= limits.maxConnections) {
      onRefused(socket);
      turnAway(socket, limits.maxConnections, turning);
      return;
    }
    open++;
    socket.once('close', () => open--);
    for (const listener of serve) listener.call(server, socket);
  });
  return {
    dispose() {
      for (const socket of turning) socket.destroy();
      turning.clear();
    },
  };
}
