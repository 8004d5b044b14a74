import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { EventMap, EventName, WireMessage } from '../../src-shared/contract';
import { createTestStudio, RESOURCES } from '../../src-main/workspace/test-studio';

// Bytes between the core and one UI client, counted as the web shell sends them (one JSON text
// per event message):
// - one capsule moved in a 300-capsule formation: the whole FormationView (what formation.changed
//   carried before it carried changes) against the change the core sends now;
// - trace lines while two capsules run a task each and the client's live view shows one of them:
//   every session's lines (what every client got before trace.follow) against the followed one's.
// Counts, not times: nothing here depends on the machine. Usage:
// node -r tsx/cjs bench/formation-diff/diff.ts [--capsules N] [--out FILE]

const args = process.argv.slice(2);
const count = args.includes('--capsules') ? Number(args[args.indexOf('--capsules') + 1]) : 300;
const outArg = args.indexOf('--out');
const out = resolve(outArg >= 0 ? args[outArg + 1] : join(__dirname, '..', 'results', 'formation-diff.json'));

const wire = (event: EventName, payload: unknown) =>
  Buffer.byteLength(JSON.stringify({ type: 'event', event, payload } satisfies WireMessage));

/** A formation of `n` workers built on the example's writer manifest (its size is a typical one's). */
function bigFormation(dir: string, n: number) {
  const template = readFileSync(join(RESOURCES, 'example-workspace', 'capsules', 'writer.yaml'), 'utf8');
  const lines = ['capsules:'];
  for (let i = 0; i < n; i++) {
    const name = `cap-${String(i).padStart(3, '0')}`;
    const file = join(dir, 'capsules', `${name}.yaml`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, template.replace(/^name: .*$/m, `name: ${name}`).replace(/^(\s*internal_port:).*$/m, ''));
    lines.push(
      `  - id: ${name}`,
      `    manifest: capsules/${name}.yaml`,
      `    position: { x: ${(i % 20) * 280}, y: ${Math.floor(i / 20) * 200} }`,
    );
  }
  writeFileSync(join(dir, 'formation.yaml'), lines.join('\n') + '\nremotes: []\n');
}

async function moveBytes() {
  const studio = await createTestStudio({ workspace: null });
  try {
    const dir = join(studio.home, 'big');
    bigFormation(dir, count);
    const opened = await studio.core.invoke('workspace.open', { dir });
    let sent = 0;
    let messages = 0;
    const client = studio.core.connect((event, payload) => {
      if (event !== 'formation.changed') return;
      sent += wire(event, payload);
      messages++;
    });
    await studio.core.invoke('capsule.move', { id: 'cap-007', position: { x: 12, y: 34 } });
    const after = studio.view()!;
    client.close();
    const { version: _v, ...whole } = after;
    return {
      capsules: opened.capsules.length,
      manifest_bytes_each: Buffer.byteLength(opened.capsules[0].manifestSource),
      before_bytes: wire('formation.changed', whole),
      after_bytes: sent,
      messages,
      workspace_open_bytes: wire('formation.changed', { version: opened.version, dir, full: opened }),
    };
  } finally {
    await studio.dispose();
  }
}

async function traceBytes() {
  const studio = await createTestStudio();
  try {
    const writer = await studio.core.invoke('capsule.launch', { id: 'writer' });
    await studio.core.invoke('capsule.launch', { id: 'researcher' });
    let all = 0;
    let followed = 0;
    const off = studio.core.subscribe(
      (event, payload) => void (event === 'trace.appended' && (all += wire(event, payload))),
    );
    const client = studio.core.connect(
      (event, payload) => void (event === 'trace.appended' && (followed += wire(event, payload))),
    );
    await client.handle('trace.follow', { sessionId: writer.sessionId });
    const ends = ['writer', 'researcher'].map((id) =>
      studio.next(
        'trace.appended',
        (t: EventMap['trace.appended']) => t.capsuleId === id && t.events.some((e) => e.event_type === 'task_end'),
        20_000,
      ),
    );
    await Promise.all([
      studio.core.invoke('task.send', { capsuleId: 'writer', text: 'Write about the sea' }),
      studio.core.invoke('task.send', { capsuleId: 'researcher', text: 'Find three sources' }),
    ]);
    await Promise.all(ends);
    off();
    client.close();
    return { sessions_running: 2, sessions_followed: 1, before_bytes: all, after_bytes: followed };
  } finally {
    await studio.dispose();
  }
}

async function main() {
  const move = await moveBytes();
  const trace = await traceBytes();
  const result = {
    move_one_capsule: { ...move, ratio: Math.round((move.before_bytes / Math.max(1, move.after_bytes)) * 10) / 10 },
    trace_lines_per_client: trace,
    note: 'bytes of the web shell event messages one client receives; before_bytes: what the core sent before formation.changed carried changes / before trace.follow (every line of every session)',
    measured_at: new Date().toISOString(),
    summary: `formation-diff: one move in ${move.capsules} capsules ${move.before_bytes} -> ${move.after_bytes} bytes; trace lines to a client following 1 of 2 running sessions ${trace.before_bytes} -> ${trace.after_bytes} bytes`,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
