// Runs every family of trace reader over one trace file, in its own process, and prints what
// each kept and the process's peak resident memory: line-cost.test.ts compares a trace holding a
// 50 MiB line with the same trace without it. Usage: node --import tsx line-cost.fixture.ts <trace> <records root> <session id>
import { recordedSession, replayOf } from '../recording';
import { createTraceStore, readTraceLines, readTraceLinesAsync, readTraceLinesAt } from '../trace';

async function main() {
  const [path, records, session] = process.argv.slice(2);
  const fork = readTraceLines(path);
  const forked = recordedSession(fork.lines.map((l) => l.event));
  const replay = await readTraceLinesAsync(path);
  const store = createTraceStore({ path: ':memory:' });
  const indexed = store.ingestFile(path);
  store.dispose();
  const live = await readTraceLinesAt(path, { after: 0, limit: 10_000 }, session);
  const run = await replayOf(path, records);
  process.stdout.write(
    JSON.stringify({
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
      fork: { lines: fork.lines.length, long: fork.skipped.long, tasks: forked.tasks.length },
      replay: { lines: replay.lines.length, long: replay.skipped.long, events: run.lines.length },
      index: { added: indexed.added, long: indexed.skipped.long },
      live: { events: live.events.length, long: live.skipped.long },
    }),
  );
}

void main();
