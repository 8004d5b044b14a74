import type { CorePorts } from '../core';
import { providerNamed } from '../tunnel';
import { standInProvider } from '../tunnel/testing';

// For the end-to-end tests only: `capsule studio --web` started with CAPSULE_TEST_TUNNEL_STAND_IN=1
// opens its cloudflared tunnels through a loopback stand-in for the engine's edge (a reverse proxy
// on 127.0.0.1 that adds X-Forwarded-Host and reports https://tunnel.example.test), so a test can
// go through "Reach from anywhere" with no internet. It prints where the stand-in listens on stderr.
//
// Why this is safe: the variable is read here once, by this command, at start; nothing in the
// contract can select the stand-in (tunnel.create names only cloudflared or ngrok). The stand-in
// listens on loopback only, so it exposes less than the real engine, and the tunnel's guard and
// the gateway's checks (link, cookie, bearer) stand behind it unchanged. ngrok stays the real one.
// `capsule studio` loads this module (and the stand-in with it) only when the variable is set.

import { STAND_IN_VAR } from './stand-in-var';

export { STAND_IN_VAR };

export function standInPorts(env: NodeJS.ProcessEnv, log: (line: string) => void): Pick<CorePorts, 'tunnelProvider'> {
  if (env[STAND_IN_VAR] !== '1') return {};
  log(`warning: ${STAND_IN_VAR}=1: cloudflared tunnels go through a loopback stand-in (tests only)`);
  return {
    tunnelProvider(name) {
      if (name !== undefined && name !== 'cloudflared') return providerNamed(name);
      const edge = standInProvider();
      return {
        name: edge.provider.name,
        async open(target, opts) {
          const opened = await edge.provider.open(target, opts);
          log(`tunnel stand-in: ${opened.publicUrl} answers at ${edge.edge()}`);
          return opened;
        },
      };
    },
  };
}
