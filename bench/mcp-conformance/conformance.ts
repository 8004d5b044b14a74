import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createGateway, sessionCapsule } from '../../src-main/gateway';
import { startTestSession } from '../../src-main/runtime/testing';

// The MCP conformance suite (@modelcontextprotocol/conformance, from node_modules, offline) against
// the gateway's MCP endpoint, serving one exposed rehearsal capsule. The suite's client sends no
// Authorization header, so it talks to a small proxy that adds the capsule's bearer token (what an
// MCP client configured with the token does) and passes Host and Origin on as the suite wrote them
// (its own address is rewritten to the gateway's, as a transparent proxy would look).
//
// Only the scenarios that apply are run. The others ask for things the gateway does not offer, or
// for tools named by the suite: resources-* and prompts-* (no resources or prompts: a capsule is a
// tool), completion-complete (completes prompt and resource arguments), logging-set-level and
// tools-call-with-logging (no logging capability), tools-call-* (tools the suite names, such as
// test_simple_text and test_image_content, that a capsule is not), json-schema-2020-12 (a named
// tool), elicitation-* and tools-call-sampling/-elicitation (the gateway asks the client nothing),
// server-sse-polling (is run, but its test_reconnection tool and resumable streams do not apply: the gateway keeps no event
// store, a broken stream cancels its task instead: it passes, with the suite's two warnings about
// the priming event and retry field that resumable streams would need).
// Usage: node -r tsx/cjs bench/mcp-conformance/conformance.ts [--smoke] [--out FILE]

export const APPLICABLE = [
  'server-initialize',
  'ping',
  'tools-list',
  'server-sse-multiple-streams',
  'server-sse-polling',
  'dns-rebinding-protection',
] as const;

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  warnings: number;
  /** Each check that did not pass, with the suite's message. */
  problems: { id: string; status: string; message?: string }[];
}

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
// fs.globSync arrived in Node 22; on Node 20 the suite starts with a stub for it.
const NODE_ARGS =
  typeof (fs as { globSync?: unknown }).globSync === 'function' ? [] : ['--import', join(__dirname, 'node20-glob.mjs')];

function bearerProxy(target: URL, token: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const own = `127.0.0.1:${(server.address() as { port: number }).port}`;
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host === own) headers.host = target.host;
    if (headers.origin === `http://${own}`) headers.origin = target.origin;
    const out = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`, server }),
    ),
  );
}

function runScenario(url: string, scenario: string, outDir: string): Promise<ScenarioResult> {
  mkdirSync(outDir, { recursive: true });
  return new Promise((ok) => {
    execFile(
      process.execPath,
      [...NODE_ARGS, CLI, 'server', '--url', url, '--scenario', scenario, '-o', outDir],
      { cwd: outDir, timeout: 60_000 },
      (err, _stdout, stderr) => {
        if (err && !readdirSync(outDir).length) process.stderr.write(`${scenario}: ${stderr || err.message}\n`);
        const found = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter(
          (f) => f.endsWith('checks.json') && f.includes(scenario),
        );
        const checks: { id: string; status: string; errorMessage?: string }[] = found.length
          ? JSON.parse(readFileSync(join(outDir, found[found.length - 1]), 'utf8'))
          : [{ id: scenario, status: 'FAILURE', errorMessage: 'the suite wrote no checks' }];
        const of = (s: string) => checks.filter((c) => c.status === s).length;
        ok({
          scenario,
          passed: of('SUCCESS'),
          failed: of('FAILURE'),
          warnings: of('WARNING'),
          problems: checks
            .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
            .map((c) => ({ id: c.id, status: c.status, ...(c.errorMessage ? { message: c.errorMessage } : {}) })),
        });
      },
    );
  });
}

/** Runs the applicable scenarios against a fresh gateway and capsule; everything is removed after. */
export async function runConformance(scenarios: readonly string[] = APPLICABLE): Promise<ScenarioResult[]> {
  const capsule = await startTestSession({
    name: 'helper',
    description: 'Answers in one line.',
    inference: { rehearsal: { replies: [{ turns: [{ text: 'done' }] }] } },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  const gateway = await createGateway({
    dataDir,
    port: 0,
    resolveCapsule: (n) => (n === 'helper' ? sessionCapsule(capsule.session) : undefined),
  });
  const { token } = gateway.exposures.enable('helper');
  const proxy = await bearerProxy(new URL(gateway.urlsOf('helper').mcp), token);
  try {
    const results: ScenarioResult[] = [];
    for (const s of scenarios) results.push(await runScenario(proxy.url, s, join(dataDir, 'results')));
    return results;
  } finally {
    proxy.server.closeAllConnections();
    proxy.server.close();
    await gateway.close();
    await capsule.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const out = resolve(
    args.includes('--out') ? args[args.indexOf('--out') + 1] : join(__dirname, '..', 'results', 'mcp-conformance.json'),
  );
  void runConformance().then((results) => {
    const failed = results.reduce((n, r) => n + r.failed, 0);
    const summary = `mcp-conformance: ${results.filter((r) => r.failed === 0).length}/${results.length} applicable scenarios pass (${results.map((r) => `${r.scenario} ${r.failed ? 'FAIL' : 'ok'}`).join(', ')})`;
    mkdirSync(dirname(out), { recursive: true });
    const result = { results, failed, summary };
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exitCode = failed ? 1 : 0;
  });
}
