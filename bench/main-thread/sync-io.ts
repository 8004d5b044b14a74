import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

// Watches the main thread's synchronous file system calls while the benchmark runs: each call of
// the fs *Sync functions is timed, and the longest ones are kept with their size and the source
// line that made them. (The core's code reads fs functions at call time, so wrapping them on the
// module object sees every call; calls from worker threads are not on this thread and not seen.)

const WATCHED = [
  'readSync',
  'writeSync',
  'readFileSync',
  'writeFileSync',
  'appendFileSync',
  'openSync',
  'closeSync',
  'fstatSync',
  'statSync',
  'lstatSync',
  'existsSync',
  'readdirSync',
  'mkdirSync',
  'renameSync',
  'rmSync',
  'fsyncSync',
  'copyFileSync',
] as const;

export interface SyncCall {
  fn: string;
  ms: number;
  bytes: number | null;
  /** The first frame outside node's internals and this file: who made the call. */
  at: string;
}

/** The bytes a call moved, where it says (a read's count, a written string or buffer, a file read whole). */
function bytesOf(fn: string, args: unknown[], result: unknown): number | null {
  if ((fn === 'readSync' || fn === 'writeSync') && typeof result === 'number') return result;
  if (fn === 'readFileSync')
    return typeof result === 'string'
      ? Buffer.byteLength(result)
      : ((result as Buffer | undefined)?.byteLength ?? null);
  if (fn === 'writeFileSync' || fn === 'appendFileSync') {
    const data = args[1];
    return typeof data === 'string'
      ? Buffer.byteLength(data)
      : ((data as ArrayBufferView | undefined)?.byteLength ?? null);
  }
  return null;
}

function caller(): string {
  const lines = (new Error().stack ?? '').split('\n').slice(2);
  const frame = lines.find((l) => !l.includes('node:') && !l.includes('sync-io.ts'));
  return (frame ?? '').trim().replace(/^at /, '').replace(process.cwd(), '.');
}

export function watchSyncIo(keep = 10) {
  // The module object itself (an ES namespace import would be a frozen copy of it).
  const mod = createRequire(__filename)('node:fs') as Record<string, (...args: unknown[]) => unknown>;
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  const longest: SyncCall[] = [];
  const counts: Record<string, { calls: number; ms: number }> = {};
  let over1ms = 0;
  let largestBytes: SyncCall | undefined;

  for (const fn of WATCHED) {
    const original = mod[fn];
    originals.set(fn, original);
    mod[fn] = function (this: unknown, ...args: unknown[]) {
      const start = performance.now();
      const result = original.apply(this, args);
      const ms = performance.now() - start;
      const c = (counts[fn] ??= { calls: 0, ms: 0 });
      c.calls++;
      c.ms += ms;
      if (ms > 1) over1ms++;
      const bytes = bytesOf(fn, args, result);
      const slow = longest.length < keep || ms > longest[longest.length - 1].ms;
      const big = bytes !== null && bytes > (largestBytes?.bytes ?? -1);
      if (slow || big) {
        const call = { fn, ms: Math.round(ms * 1000) / 1000, bytes, at: caller() };
        if (slow) {
          longest.push(call);
          longest.sort((a, b) => b.ms - a.ms);
          longest.length = Math.min(longest.length, keep);
        }
        if (big) largestBytes = call;
      }
      return result;
    };
  }

  return {
    stop() {
      for (const [fn, original] of originals) mod[fn] = original;
    },
    report() {
      const round = (n: number) => Math.round(n * 100) / 100;
      return {
        longest,
        largestBytes: largestBytes ?? null,
        callsOver1ms: over1ms,
        byFunction: Object.fromEntries(
          Object.entries(counts).map(([fn, c]) => [fn, { calls: c.calls, ms: round(c.ms) }]),
        ),
      };
    },
  };
}
