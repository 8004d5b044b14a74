import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './test-studio';

// Remote agents: the card is fetched over HTTP and shown on the node; an edge to a remote is an
// allow entry for its interface URL.

let studio: TestStudio | undefined;
let server: Server | undefined;
afterEach(async () => {
  await studio?.dispose();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  studio = undefined;
  server = undefined;
});

async function cardServer(): Promise<string> {
  server = createServer((req, res) => {
    if (req.url !== '/.well-known/agent-card.json') return void res.writeHead(404).end();
    const { port } = server!.address() as { port: number };
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        name: 'Translator',
        description: 'Translates text',
        version: '2.1.0',
        supportedInterfaces: [
          { url: `http://127.0.0.1:${port}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'translate', name: 'Translate', description: 'Any language pair', tags: ['text'] }],
      }),
    );
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('remote agents', () => {
  it('adds a remote by URL with its card, and an edge to it is an allow entry for its interface', async () => {
    studio = await createTestStudio();
    const base = await cardServer();
    const remote = await studio.core.invoke('remote.add', { url: base, position: { x: 700, y: 200 } });
    expect(remote.card).toMatchObject({
      name: 'Translator',
      skills: [{ id: 'translate', name: 'Translate' }],
      interfaces: [{ url: `${base}/a2a`, protocolBinding: 'JSONRPC' }],
    });
    expect(remote.address).toBe(`${base}/a2a`);
    expect(parse(readFileSync(join(studio.workspace, 'formation.yaml'), 'utf8')).remotes).toEqual([
      { id: remote.id, url: base, position: { x: 700, y: 200 } },
    ]);

    const res = await studio.core.invoke('edge.connect', { source: 'coordinator', target: remote.id });
    expect(res.edge).toMatchObject({ target: remote.id, targetKind: 'remote', address: `${base}/a2a` });
    expect(
      parse(readFileSync(join(studio.workspace, 'capsules', 'coordinator.yaml'), 'utf8')).capabilities.network.allow,
    ).toContain(`${base}/a2a`);

    await studio.core.invoke('remote.remove', { id: remote.id });
    expect(
      parse(readFileSync(join(studio.workspace, 'capsules', 'coordinator.yaml'), 'utf8')).capabilities.network.allow,
    ).not.toContain(`${base}/a2a`);
    expect((await studio.core.invoke('formation.get', {})).remotes).toEqual([]);
  });

  it('shows why a card could not be fetched on the node', async () => {
    studio = await createTestStudio();
    const base = await cardServer();
    await new Promise((r) => server!.close(r));
    server = undefined;
    const remote = await studio.core.invoke('remote.add', { url: base, position: { x: 0, y: 0 } });
    expect(remote.card).toBeUndefined();
    expect(remote.error).toMatch(/Nothing is listening|Cannot fetch/);
  });
});
