import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPeerClient } from './client';
import { PolicyRefusal } from './errors';

// 127.0.0.1 and ::1 are two places: a second process may hold the same port on the other address.
// An entry naming one never reaches the other; only the name localhost means both, and a target
// named localhost goes to the allowed address the peer actually listens on.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))),
  );
});

/** A server answering its agent card with `name`, counting the requests it got. */
function cardServer(
  name: string,
  host: string,
  port: number,
): Promise<{ server: Server; hits: () => number; port: number }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, version: '1.0.0' }));
  });
  servers.push(server);
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok({ server, hits: () => hits, port: (server.address() as AddressInfo).port }));
  });
}

/** One server on 127.0.0.1 and another on ::1, on the same port number. */
async function twins() {
  for (let attempt = 0; ; attempt++) {
    const v4 = await cardServer('on-ipv4', '127.0.0.1', 0);
    try {
      const v6 = await cardServer('on-ipv6', '::1', v4.port);
      return { v4, v6, port: v4.port };
    } catch (err) {
      if (attempt > 5) throw err;
      await new Promise<void>((r) => v4.server.close(() => r()));
    }
  }
}

const client = (allow: string[]) => createPeerClient({ capsule: 'orch', sessionId: 'ses_x', allow, timeoutMs: 5000 });

describe('loopback addresses in the allow list', () => {
  it('an entry for 127.0.0.1 never reaches a different process on [::1], and the reverse', async () => {
    const { v4, v6, port } = await twins();
    await expect(client([`127.0.0.1:${port}`]).fetchCard(`http://[::1]:${port}`)).rejects.toBeInstanceOf(PolicyRefusal);
    await expect(client([`http://127.0.0.1:${port}`]).fetchCard(`http://[::1]:${port}/`)).rejects.toBeInstanceOf(
      PolicyRefusal,
    );
    await expect(client([`[::1]:${port}`]).fetchCard(`http://127.0.0.1:${port}`)).rejects.toBeInstanceOf(PolicyRefusal);
    expect(v4.hits() + v6.hits()).toBe(0);
    expect((await client([`127.0.0.1:${port}`]).fetchCard(`http://127.0.0.1:${port}`)).name).toBe('on-ipv4');
    expect((await client([`[::1]:${port}`]).fetchCard(`http://[::1]:${port}`)).name).toBe('on-ipv6');
  });

  it('a target named localhost goes only to an allowed address', async () => {
    const { port } = await twins();
    expect((await client([`127.0.0.1:${port}`]).fetchCard(`http://localhost:${port}`)).name).toBe('on-ipv4');
    expect((await client([`[::1]:${port}`]).fetchCard(`http://localhost:${port}`)).name).toBe('on-ipv6');
    expect((await client([`localhost:${port}`]).fetchCard(`http://localhost:${port}`)).name).toBe('on-ipv4');
  });

  it('localhost reaches a peer that listens on ::1 only (the address family it is actually on)', async () => {
    const v6 = await cardServer('only-ipv6', '::1', 0);
    expect((await client([`localhost:${v6.port}`]).fetchCard(`http://localhost:${v6.port}`)).name).toBe('only-ipv6');
    expect((await client([`localhost:${v6.port}`]).fetchCard(`http://[::1]:${v6.port}`)).name).toBe('only-ipv6');
    // Allowed only on 127.0.0.1, the ::1 peer is not tried: the refusal is the v4 address's.
    await expect(client([`127.0.0.1:${v6.port}`]).fetchCard(`http://localhost:${v6.port}`)).rejects.toMatchObject({
      reason: 'connection_refused',
    });
  });
});
