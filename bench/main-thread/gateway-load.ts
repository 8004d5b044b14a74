import { fork } from 'node:child_process';
import { join } from 'node:path';

// 100 calls a second through the gateway, made from another process (a partner's agent is not in
// the Studio's process, and the load it makes must not count as the core's own work). Each call is
// a GetTask of a task the capsule never had: a full trip through the gateway's checks, the access
// log and the door, answered at once with "task not found".

export interface GatewayCalls {
  sent: number;
  answered: number;
  failed: number;
  /** Why calls failed, by count (a refused connection, an HTTP status and the start of its body). */
  reasons: Record<string, number>;
  rate: number;
}

export function startGatewayLoad(opts: { url: string; token: string; rate: number }) {
  const child = fork(join(__dirname, 'gateway-caller.js'), [opts.url, opts.token, String(opts.rate)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return {
    stop: () =>
      new Promise<GatewayCalls>((resolve) => {
        child.once('message', (m) => resolve({ ...(m as Omit<GatewayCalls, 'rate'>), rate: opts.rate }));
        child.send('stop');
      }),
  };
}
