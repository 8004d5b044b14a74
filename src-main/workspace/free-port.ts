import { createServer } from 'node:net';
import { CoreError } from '../../src-shared/contract';

/** A free loopback port the OS is not using right now (and no capsule has pinned). */
export async function freePort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = createServer();
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    if (!taken.has(port)) return port;
  }
  throw new CoreError('port_taken', 'Could not find a free port to pin.');
}
