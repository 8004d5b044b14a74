import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { newSessionId } from '../../src-shared/ids';
import { createTraceStore, createTraceWriter } from '../../src-main/trace';
import { syntheticSessionEvents } from '../../src-main/trace/synthetic';

// The child process of recordPastSession (past-session.ts): writes a synthetic session of about N
// lines through the product's trace writer and indexes it into the home's studio.db.
// Usage: node -r tsx/cjs e2e/helpers/record-past-session.ts <capsule home> <events> [unindexed]

const CAPSULE = 'archive-reporter';

async function main(home: string, target: number, index: boolean): Promise<void> {
  const id = newSessionId();
  const dir = join(home, 'records', id);
  mkdirSync(dir, { recursive: true });
  const tracePath = join(dir, 'trace.jsonl');
  const t0 = Date.now();
  const writer = createTraceWriter(tracePath, id);
  let n = 0;
  // Ten lines per task (received, start, three turns, two tool calls and results, end) plus the
  // session's start and end.
  for (const e of syntheticSessionEvents({
    capsule: CAPSULE,
    tasks: Math.max(1, Math.ceil((target - 2) / 10)),
    turns: 3,
    answerWord: 'archived',
  })) {
    writer.append(e);
    n++;
  }
  writer.dispose();
  const t1 = Date.now();
  if (index) {
    const store = createTraceStore({ path: join(home, 'studio.db') });
    try {
      store.ingestFile(tracePath);
    } finally {
      store.dispose();
    }
  }
  const result = { id, events: n, tracePath, capsule: CAPSULE, writeMs: t1 - t0, indexMs: Date.now() - t1 };
  process.stdout.write(JSON.stringify(result) + '\n');
}

const [home, events, mode] = process.argv.slice(2);
void main(resolve(home), Number(events), mode !== 'unindexed').catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
