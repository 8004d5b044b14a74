import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Role, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UserError } from './errors';
import { main } from './expose';

// `capsule serve` (a formation plus the gateway, headless) and `capsule expose` in another
// process: the token printed once opens the capsule at once; --revoke closes it at once.

const BIN = resolve(__dirname, '../../bin/capsule.js');
let home: string;
let ws: string;
let serve: ChildProcess;
const lines: string[] = [];

const manifest = (name: string) => `name: ${name}
version: "0.1.0"
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
`;

/** `capsule expose …` in this process (the serve process is the separate one), stdout captured. */
async function expose(...args: string[]): Promise<{ code: number; stdout: string }> {
  const saved = process.env.CAPSULE_HOME;
  process.env.CAPSULE_HOME = home;
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => (out.push(String(chunk)), true));
  try {
    return { code: await main(args), stdout: out.join('') };
  } catch (err) {
    if (err instanceof UserError) return { code: err.exitCode, stdout: out.join('') };
    throw err;
  } finally {
    spy.mockRestore();
    process.env.CAPSULE_HOME = saved;
  }
}

function waitLine(pattern: RegExp): Promise<string> {
  const found = lines.find((l) => pattern.test(l));
  if (found) return Promise.resolve(found);
  return new Promise((done, fail) => {
    const rl = createInterface({ input: serve.stdout! });
    const timer = setTimeout(() => fail(new Error(`no line matching ${pattern}; got ${lines.join(' | ')}`)), 20_000);
    rl.on('line', (l) => {
      if (pattern.test(l)) {
        clearTimeout(timer);
        rl.close();
        done(l);
      }
    });
  });
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'capsule-serve-'));
  ws = join(home, 'ws');
  mkdirSync(join(ws, 'capsules'), { recursive: true });
  writeFileSync(join(ws, 'capsules', 'alpha.yaml'), manifest('alpha'));
  writeFileSync(join(ws, 'capsules', 'beta.yaml'), manifest('beta'));
  writeFileSync(
    join(ws, 'formation.yaml'),
    'capsules:\n  - id: alpha\n    manifest: capsules/alpha.yaml\n  - id: beta\n    manifest: capsules/beta.yaml\nremotes: []\n',
  );
  serve = spawn(process.execPath, [BIN, 'serve', '--workspace', ws, '--gateway-port', '0'], {
    env: { ...process.env, CAPSULE_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  createInterface({ input: serve.stdout! }).on('line', (l) => lines.push(l));
  await waitLine(/^not exposed: beta/);
}, 30_000);

afterAll(() => {
  if (serve.exitCode === null) serve.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

const call = (url: string, token: string) =>
  fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    }),
  });

describe('capsule serve + capsule expose', () => {
  it('launches the formation, prints the gateway, exposes with a one-time token, revokes at once, stops cleanly', async () => {
    const gatewayUrl = (await waitLine(/^gateway: /)).slice('gateway: '.length);
    expect(gatewayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.some((l) => /^capsule: alpha http:\/\/127\.0\.0\.1:\d+/.test(l))).toBe(true);

    const exposed = await expose('alpha');
    expect(exposed.code).toBe(0);
    const token = /^token: (\S+)$/m.exec(exposed.stdout)![1];
    const url = /^url: (\S+)$/m.exec(exposed.stdout)![1];
    expect(url).toBe(`${gatewayUrl}/a2a/capsules/alpha/`);
    expect(exposed.stdout).toContain(`curl -s '${url}'`);

    const ok = (await (await call(url, token)).json()) as any;
    expect(ok.result.task.status.state).toBe('TASK_STATE_COMPLETED');

    // the exact printed URL works with the SDK's createFromUrl, and a message goes through
    const bearer: typeof fetch = (input, init = {}) =>
      fetch(input, {
        ...init,
        headers: { ...Object.fromEntries(new Headers(init.headers)), authorization: `Bearer ${token}` },
      });
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: bearer })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: bearer }),
      }),
    );
    const client = await factory.createFromUrl(url);
    const parts = [
      { content: { $case: 'text' as const, value: 'via the sdk' }, metadata: undefined, filename: '', mediaType: '' },
    ];
    const message = {
      messageId: 'm-sdk',
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    const sent = (await client.sendMessage({
      tenant: '',
      message,
      configuration: undefined,
      metadata: undefined,
    })) as any;
    expect(sent.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // and so does the URL typed without its trailing slash
    const plain = await factory.createFromUrl(url.slice(0, -1));
    expect(((await plain.getTask({ tenant: '', id: sent.id, historyLength: 0 })) as any).id).toBe(sent.id);
    expect(exposed.stdout).toContain(`createFromUrl('${url}')`);
    expect((await call(`${gatewayUrl}/a2a/capsules/beta`, token)).status).toBe(404);

    // The MCP URL printed beside the A2A one, with the config printed: alpha is the one tool there, and answers.
    expect(await waitLine(/^mcp: /)).toMatch(new RegExp(`^mcp: ${gatewayUrl}/mcp `));
    const mcpUrl = /^mcp: (\S+)$/m.exec(exposed.stdout)![1];
    expect(mcpUrl).toBe(`${gatewayUrl}/mcp`);
    const config = JSON.parse(exposed.stdout.slice(exposed.stdout.indexOf('{\n  "mcpServers"')));
    const mcp = new McpClient({ name: 'cli-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(config.mcpServers['capsule-studio'].url), {
        requestInit: { headers: config.mcpServers['capsule-studio'].headers },
      }),
    );
    expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(['alpha']);
    expect(((await mcp.callTool({ name: 'alpha', arguments: { text: 'hi over MCP' } })) as any).isError).toBeFalsy();
    await mcp.close();
    expect((await expose('alpha')).code).toBe(1); // already exposed: the token is never shown again

    expect((await expose('alpha', '--revoke')).code).toBe(0);
    expect((await call(url, token)).status).toBe(401);

    const exited = new Promise<number | null>((r) => serve.once('exit', (code) => r(code)));
    serve.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 40_000);
});
