import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TunnelProvider } from './provider';

// Test support: a stand-in for a tunnel engine's edge. A loopback reverse proxy in front of the
// guard that adds X-Forwarded-Host as an edge would, and reports an https public URL. Tests call
// its loopback address where a real caller would call the public one.

export interface StandIn {
  provider: TunnelProvider;
  /** Where a test reaches the "public" side (the stand-in's loopback address). */
  edge(): string;
  /** Set once the tunnel is open. */
  publicHost: string;
}

export function standInProvider(publicHost = 'tunnel.example.test'): StandIn {
  let server: Server | undefined;
  let edge = '';
  const exits: ((why: string) => void)[] = [];
  return {
    publicHost,
    edge: () => edge,
    provider: {
      name: 'stand-in',
      async open(target) {
        const up = new URL(target);
        server = createServer((req, res) => {
          const headers = {
            ...req.headers,
            host: publicHost,
            'x-forwarded-host': publicHost,
            'x-forwarded-proto': 'https',
          };
          const fwd = request(
            { host: up.hostname, port: up.port, method: req.method, path: req.url, headers },
            (answer) => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
            },
          );
          fwd.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end('edge: origin down')));
          req.pipe(fwd);
        });
        await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
        edge = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const s = server;
        return {
          publicUrl: `https://${publicHost}`,
          close: () =>
            new Promise<void>((r) => {
              s.close(() => r());
              s.closeAllConnections();
            }),
          onExit: (l) => exits.push(l),
        };
      },
    },
  };
}
