import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT, type ContractConnection } from '../support/studio';

// A runtime on "another host": a `capsule serve --studio` with its own home, records and port
// (loopback only), serving a workspace with one rehearsal worker, far-writer. The test attaches it
// from the UI with the URL and token the serve prints.

export interface ServedRuntime {
  url: string;
  token: string;
  process: ChildProcess;
  /** Kills the serve and removes its folders. */
  close(): void;
}

export async function startServe(): Promise<ServedRuntime> {
  const home = mkdtempSync(join(tmpdir(), 'studio-remote-'));
  const ws = join(home, 'ws');
  mkdirSync(ws);
  writeFileSync(
    join(ws, 'far-writer.yaml'),
    'name: far-writer\nversion: "1"\nrole: worker\ninference:\n  transport: embedded\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n  rehearsal:\n    replies:\n      - turns:\n          - text: "Written on the far host."\n',
  );
  writeFileSync(
    join(ws, 'formation.yaml'),
    'capsules:\n  - id: far-writer\n    manifest: far-writer.yaml\n    position: { x: 100, y: 40 }\nremotes: []\n',
  );
  const serve = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'capsule.js'), 'serve', '--workspace', ws, '--studio', '--studio-port', '0'],
    { env: { ...process.env, CAPSULE_HOME: join(home, 'home') }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const close = () => {
    if (serve.exitCode === null) serve.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  };
  const lines: string[] = [];
  try {
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`serve printed no token: ${lines.join(' | ')}`)), 30_000);
      createInterface({ input: serve.stdout! }).on('line', (l) => {
        lines.push(l);
        if (l.startsWith('studio token: ')) {
          clearTimeout(timer);
          done();
        }
      });
    });
  } catch (err) {
    close();
    throw err;
  }
  return {
    url: lines.find((l) => l.startsWith('studio: '))!.slice(8),
    token: lines.find((l) => l.startsWith('studio token: '))!.slice(14),
    process: serve,
    close,
  };
}

/**
 * Detaches every runtime attached to the Studio: attachments are kept by the Studio, which the
 * worker's next tests share, and a runtime left attached would stand on their canvas.
 */
export async function detachAll(core: ContractConnection): Promise<void> {
  for (const r of await core.invoke('runtimes.list', {}))
    await core.invoke('runtimes.detach', { id: r.id }).catch(() => undefined);
}
