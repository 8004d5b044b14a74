import { appendFile } from 'node:fs/promises';

// Appends lines to a file without holding the main thread: a line is queued, and the lines queued
// while a write is under way go together in the next one (one write per burst, not per line).
// Used where the Studio's own process logs what happens at run time (the gateway's access log).
// Nothing here is allowed to fail its caller: a full disk or a removed folder costs lines, not calls,
// and a disk too slow for the rate costs the lines past MAX_QUEUED_BYTES (counted in `dropped`).

/** Past this much waiting to be written, new lines are dropped rather than held in memory. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

export interface LineAppender {
  /** Queues one line (without its newline). */
  append(line: string): void;
  /** Resolves once every line queued so far was written (or failed to be). */
  flush(): Promise<void>;
  /** Lines dropped because the queue was full. */
  readonly dropped: number;
}

export function createLineAppender(file: string, opts: { mode?: number } = {}): LineAppender {
  let queued: string[] = [];
  let queuedBytes = 0;
  let dropped = 0;
  let writing: Promise<void> | undefined;

  const drain = async () => {
    while (queued.length > 0) {
      const text = queued.join('');
      queued = [];
      queuedBytes = 0;
      try {
        await appendFile(file, text, { mode: opts.mode ?? 0o600 });
      } catch {
        // The lines are lost; the calls they describe are not.
      }
    }
    writing = undefined;
  };

  return {
    append(line) {
      const text = `${line}\n`;
      if (queuedBytes + text.length > MAX_QUEUED_BYTES) {
        dropped++;
        return;
      }
      queued.push(text);
      queuedBytes += text.length;
      writing ??= drain();
    },
    flush: () => writing ?? Promise.resolve(),
    get dropped() {
      return dropped;
    },
  };
}
