import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { CapsuleView, EdgeView, ReplayRun, ReplayStep } from '../../src-shared/contract';
import { EMPTY_FLOW, foldSteps } from '../../src-renderer/store/replayFold';

// The replay's cost in the renderer: folding a full run of MAX_REPLAY_LINES steps (20,000: a
// jump to the end from the start), and the at most 256 steps a jump back folds from its nearest
// checkpoint; a run of 2 workers, one hop out and back every 3 steps, streamed text between.
// Usage: node -r tsx/cjs bench/replay/fold.ts [--smoke] [--out FILE]

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const outArg = args.indexOf('--out');
const out = resolve(outArg >= 0 ? args[outArg + 1] : join(__dirname, '..', 'results', 'replay.json'));
const N = smoke ? 2000 : 20_000;
const T = Date.UTC(2026, 0, 1);
const ts = (i: number) => new Date(T + i).toISOString();

const capsule = (id: string, url?: string) =>
  ({ id, name: id, role: 'worker', state: 'idle', ...(url ? { url } : {}) }) as CapsuleView;
const f = {
  capsules: {
    boss: capsule('boss'),
    a: capsule('a', 'http://127.0.0.1:4001/'),
    b: capsule('b', 'http://127.0.0.1:4002/'),
  },
  remotes: {},
  edgeViews: [
    { id: 'boss->a', source: 'boss', target: 'a', targetKind: 'capsule', address: 'localhost:4001' },
    { id: 'boss->b', source: 'boss', target: 'b', targetKind: 'capsule', address: 'localhost:4002' },
  ] as EdgeView[],
};
const steps: ReplayStep[] = [];
for (let i = 0; i < N; i++) {
  const k = Math.floor(i / 3);
  const to = k % 2 ? 'a' : 'b';
  const base = { at: T + i, line: i, sessionId: 'ses_boss', capsule: 'boss' };
  if (i % 3 === 0)
    steps.push({
      ...base,
      delegations: [{ taskId: `t${Math.floor(k / 10)}`, callId: `c${k}`, to, state: 'running', ts: ts(i) }],
    });
  else if (i % 3 === 1)
    steps.push({ ...base, capsule: to, progress: { taskId: `w${k}`, turn: 1, text: 'x'.repeat(200) } });
  else
    steps.push({
      ...base,
      delegations: [
        { taskId: `t${Math.floor(k / 10)}`, callId: `c${k}`, to, state: 'answered', text: 'y'.repeat(300), ts: ts(i) },
      ],
    });
}
const run = { steps } as Pick<ReplayRun, 'steps'>;
const ids = { boss: 'boss', a: 'a', b: 'b' };

function time(fn: () => void, reps: number): number {
  fn();
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) fn();
  return (performance.now() - t0) / reps;
}

const full = time(() => foldSteps(f, run, ids, EMPTY_FLOW, 0, N), smoke ? 3 : 10);
const mid = foldSteps(f, run, ids, EMPTY_FLOW, 0, Math.floor(N / 2 / 256) * 256);
const jumpBack = time(
  () => foldSteps(f, run, ids, mid, Math.floor(N / 2 / 256) * 256, Math.floor(N / 2 / 256) * 256 + 255),
  smoke ? 20 : 200,
);
const result = {
  steps: N,
  fullFoldMs: Number(full.toFixed(2)),
  checkpointedJumpMs: Number(jumpBack.toFixed(3)),
  perStepUs: Number(((full / N) * 1000).toFixed(2)),
};
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
console.log(JSON.stringify(result));
