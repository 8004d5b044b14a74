import type { FastifyInstance } from 'fastify';
import type { Manifest } from '../../src-shared/manifest';
import type { SessionOptions } from './api';

// Opens the door on its port; a port already taken is an error naming it and where it came from.

export async function listenDoor(door: FastifyInstance, opts: SessionOptions, manifest: Manifest): Promise<number> {
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? manifest.network?.internal_port ?? 0;
  try {
    await door.listen({ host, port });
  } catch (err) {
    await door.close().catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      const from = opts.port !== undefined ? 'the --port option' : `network.internal_port in ${opts.manifestPath}`;
      throw new Error(
        `port ${port} on ${host} is already in use (set by ${from}); free it, pick another port, or remove the pin to let the OS choose`,
        { cause: err },
      );
    }
    throw new Error(`cannot open the door on ${host}:${port}: ${(err as Error).message}`, { cause: err });
  }
  const address = door.server.address();
  return typeof address === 'object' && address ? address.port : port;
}

/** Closes the door; connections still open after a grace period (a stream nobody ends) are cut. */
export async function closeDoor(door: FastifyInstance, graceMs = 1000): Promise<void> {
  const timer = setTimeout(() => door.server.closeAllConnections(), graceMs);
  try {
    await door.close();
  } catch {
  } finally {
    clearTimeout(timer);
  }
}
