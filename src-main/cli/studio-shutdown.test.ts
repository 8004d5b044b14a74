import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { pidAlive } from '../trace';

// Ctrl-C on the Studio: every session ends cleanly (session_end in its trace, its running record
// gone, its shell commands gone), through the real `capsule studio --web` process. And `npm start`
// passes each Ctrl-C to the app exactly once, so one Ctrl-C is never taken for two.

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin', 'capsule.js');
const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

const worker = (name: string, extra = '') => `name: ${name}
version: "0.1.0"
role: worker
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
${extra}`;

/** A task that detaches a command and hangs; `stubborn` makes the command ignore SIGTERM, so ending it takes the kill grace. */
const slow = (stubborn: boolean) => {
  const command = stubborn
    ? JSON.stringify([
        process.execPath,
        '-e',
        'process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)',
      ])
    : '"sleep 60"';
  return `  rehearsal:
    replies:
      - when: slow
        turns:
          - tool_calls:
              - name: shell
                arguments: { command: ${command}, detach: true }
          - hang: true
capabilities:
  shell:
    allow: [sleep, ${JSON.stringify(process.execPath)}]
`;
};

function workspace(home: string, stubborn: boolean): string {
  const ws = join(home, 'ws');
  mkdirSync(join(ws, 'capsules'), { recursive: true });
  writeFileSync(join(ws, 'capsules', 'alpha.yaml'), worker('alpha', slow(stubborn)));
  writeFileSync(join(ws, 'capsules', 'beta.yaml'), worker('beta'));
  writeFileSync(
    join(ws, 'formation.yaml'),
    'capsules:\n  - id: alpha\n    manifest: capsules/alpha.yaml\n  - id: beta\n    manifest: capsules/beta.yaml\nremotes: []\n',
  );
  return ws;
}

interface Studio {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startStudio(home: string, stubborn = false): Promise<Studio> {
  const child = spawn(
    process.execPath,
    [BIN, 'studio', '--web', '--port', '0', '--workspace', workspace(home, stubborn)],
    { cwd: ROOT, env: { ...process.env, CAPSULE_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cleanup.push(() => child.exitCode === null && child.kill('SIGKILL'));
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /studio: (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) done(m[1]);
    });
    void exited.then(({ code }) => fail(new Error(`studio exited with ${code}: ${err}`)));
  });
  return { child, url, stderr: () => err, exited };
}

/** One contract call over the web shell's socket, as the page makes it. */
async function invoke(url: string, cmd: string, input: unknown): Promise<any> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { origin: url });
  await new Promise<void>((r, j) => (ws.once('open', () => r()), ws.once('error', j)));
  try {
    ws.send(JSON.stringify({ type: 'invoke', id: 1, cmd, input }));
    const reply = await new Promise<any>((r) =>
      ws.on('message', (d) => (JSON.parse(String(d)).type === 'reply' ? r(JSON.parse(String(d))) : undefined)),
    );
    if (!reply.ok) throw new Error(`${cmd}: ${reply.error.message}`);
    return reply.value;
  } finally {
    ws.close();
  }
}

async function until<T>(read: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = read();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const traces = (home: string) =>
  readdirSync(join(home, 'records')).map((id) => readFileSync(join(home, 'records', id, 'trace.jsonl'), 'utf8'));

/** Launches the formation, gives alpha a task that detaches `sleep 60` and hangs; returns sleep's pid. */
async function busyFormation(home: string, studio: Studio): Promise<number> {
  const launched = await invoke(studio.url, 'formation.launch', {});
  expect(launched.launched.sort()).toEqual(['alpha', 'beta']);
  await invoke(studio.url, 'task.send', { capsuleId: 'alpha', text: 'slow work', returnImmediately: true });
  return until(() => {
    const m = traces(home)
      .map((t) => /\(pid (\d+)\)/.exec(t))
      .find(Boolean);
    return m ? Number(m[1]) : undefined;
  }, 'the detached sleep');
}

describe('the Studio on Ctrl-C', () => {
  it(
    'ends every session cleanly: session_end written, running records removed, child processes gone',
    { timeout: 90_000 },
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'studio-sigint-'));
      cleanup.push(() => rmSync(home, { recursive: true, force: true }));
      const studio = await startStudio(home);
      const sleepPid = await busyFormation(home, studio);
      expect(readdirSync(join(home, 'run')).filter((f) => f.endsWith('.json'))).toHaveLength(2);

      studio.child.kill('SIGINT');
      expect(await studio.exited).toEqual({ code: 0, signal: null });
      const all = traces(home);
      expect(all).toHaveLength(2);
      for (const t of all) expect(t).toContain('"session_end"');
      expect(readdirSync(join(home, 'run')).filter((f) => f.endsWith('.json'))).toEqual([]);
      expect(pidAlive(sleepPid)).toBe(false);
      expect(studio.stderr()).toContain('studio: SIGINT: ending 2 sessions (press Ctrl-C again to force)');
    },
  );

  it(
    'a second Ctrl-C during the shutdown forces it, says so, and still leaves no child process',
    { timeout: 90_000 },
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'studio-sigint2-'));
      cleanup.push(() => rmSync(home, { recursive: true, force: true }));
      // The detached command ignores SIGTERM: the clean shutdown waits its kill grace, time for a second Ctrl-C.
      const studio = await startStudio(home, true);
      const sleepPid = await busyFormation(home, studio);
      // Its output goes to the log the tool named; "ready" says its SIGTERM handler is in place.
      const log = /output goes to ([^"\s]+\.log)/.exec(traces(home).join('\n'))![1];
      await until(
        () => (existsSync(log) && readFileSync(log, 'utf8').includes('ready') ? true : undefined),
        'the command to be ready',
      );
      studio.child.kill('SIGINT');
      await until(() => (studio.stderr().includes('press Ctrl-C again') ? true : undefined), 'the shutdown to begin');
      studio.child.kill('SIGINT');
      const exit = await studio.exited;
      expect(exit.code, studio.stderr()).toBe(130);
      expect(studio.stderr()).toMatch(/studio: forced \(SIGINT again\): quitting now/);
      await until(() => (pidAlive(sleepPid) ? undefined : true), 'the sleep to be gone', 5000);
    },
  );
});

describe('npm start', () => {
  /** The launcher in its own process group (as a terminal's foreground job), with an app that counts the signals it gets. */
  async function launch(counted: string) {
    const app = `let n = 0; process.on("${counted}", () => { n++; setTimeout(() => { process.stdout.write(String(n)); process.exit(0); }, 300); }); setInterval(() => {}, 1000); process.stdout.write("ready");`;
    const launcher = `require(${JSON.stringify(join(ROOT, 'scripts', 'forward-signals.js'))}).spawnForwarding(process.execPath, ['-e', ${JSON.stringify(app)}], { stdio: 'inherit' }).on('exit', (c) => process.exit(c ?? 1));`;
    const parent = spawn(process.execPath, ['-e', launcher], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    cleanup.push(() => parent.exitCode === null && parent.kill('SIGKILL'));
    let out = '';
    parent.stdout!.on('data', (d) => (out += String(d)));
    await until(() => (out.includes('ready') ? true : undefined), 'the app to start');
    return { parent, out: () => out, exited: new Promise((r) => parent.once('exit', r)) };
  }

  it("passes a terminal's Ctrl-C to the app once, not twice", { timeout: 30_000 }, async () => {
    // The test signals the launcher's whole group, as a terminal does on Ctrl-C.
    const { parent, out, exited } = await launch('SIGINT');
    process.kill(-parent.pid!, 'SIGINT');
    await exited;
    expect(out()).toBe('ready1');
  });

  it('asks the app to end cleanly (SIGTERM) when the terminal hangs up', { timeout: 30_000 }, async () => {
    const { parent, out, exited } = await launch('SIGTERM');
    process.kill(-parent.pid!, 'SIGHUP');
    await exited;
    expect(out()).toBe('ready1');
  });
});
