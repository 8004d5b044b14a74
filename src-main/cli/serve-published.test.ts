import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExposureStore, gatewayDataDir } from '../gateway';
import { publishVersion } from '../versions';

// `capsule serve` on a workspace with a published version: outside callers get the published
// version, not the files on disk, and each `capsule publish` (from anywhere) is what they get next.

const BIN = resolve(__dirname, '../../bin/capsule.js');
let home: string;
let ws: string;
let serve: ChildProcess;

const manifest = (reply: string) => `name: alpha
version: "0.1.0"
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    replies:
      - turns:
          - text: "${reply}"
`;
const writeAlpha = (reply: string) => writeFileSync(join(ws, 'capsules', 'alpha.yaml'), manifest(reply));

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'capsule-serve-published-'));
  ws = join(home, 'ws');
  mkdirSync(join(ws, 'capsules'), { recursive: true });
  writeAlpha('Published answer.');
  writeFileSync(
    join(ws, 'formation.yaml'),
    'capsules:\n  - id: alpha\n    manifest: capsules/alpha.yaml\nremotes: []\n',
  );
  expect((await publishVersion(ws)).published).not.toBeNull();
  writeAlpha('Draft answer.');
}, 60_000);

afterAll(() => {
  if (serve?.exitCode === null) serve.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

async function startServe(): Promise<string> {
  serve = spawn(process.execPath, [BIN, 'serve', '--workspace', ws, '--gateway-port', '0'], {
    env: { ...process.env, CAPSULE_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  serve.stderr!.on('data', (d) => (err += d));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve printed no gateway line\n${err}`)), 30_000);
    createInterface({ input: serve.stdout! }).on('line', (l) => {
      const m = /^gateway: (\S+)/.exec(l);
      if (m) {
        clearTimeout(timer);
        done(m[1]);
      }
    });
  });
}

async function ask(url: string, token: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: { messageId: `m${Math.random()}`, role: 'ROLE_USER', parts: [{ text: 'hi' }] },
        configuration: { returnImmediately: false },
      },
    }),
  });
  const body = (await res.json()) as any;
  expect(body.result?.task?.status?.state, JSON.stringify(body)).toBe('TASK_STATE_COMPLETED');
  return JSON.stringify(body.result.task.artifacts);
}

describe('capsule serve with a published version', () => {
  it('serves the published version, and the next one once it is published', async () => {
    const gateway = await startServe();
    const store = createExposureStore(gatewayDataDir(home));
    const { token } = store.enable('alpha');
    store.dispose();
    const url = `${gateway}/a2a/capsules/alpha/`;
    expect(await ask(url, token)).toContain('Published answer.');
    // The card names the version callers get.
    const card = (await (
      await fetch(`${url}.well-known/agent-card.json`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as any;
    expect(card.version).toMatch(/^0\.1\.0\+[0-9a-f]{7}$/);
    // An MCP client gets the published version too.
    const mcp = new Client({ name: 'published-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const viaMcp = (await mcp.callTool({ name: 'alpha', arguments: { text: 'hi' } })) as any;
    expect(viaMcp.content[0].text).toBe('Published answer.');
    await mcp.close();

    expect((await publishVersion(ws)).published).not.toBeNull();
    expect(await ask(url, token)).toContain('Draft answer.');
    expect(readFileSync(join(ws, 'published.yaml'), 'utf8')).toContain('version:');
  }, 60_000);
});
