import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The desktop main process's log (the folder Electron names for logs): startup failures, shutdown
// problems. Only messages the core already words for users go here, never values from manifests.
// Bounded: past 1 MB the file starts over.

const MAX_BYTES = 1024 * 1024;

export interface MainLog {
  readonly file: string;
  write(message: string): void;
}

export function createMainLog(dir: string): MainLog {
  const file = join(dir, 'main.log');
  return {
    file,
    write(message) {
      try {
        mkdirSync(dir, { recursive: true });
        const line = `${new Date().toISOString()} ${message.replace(/\s+/g, ' ').slice(0, 4000)}\n`;
        let size = 0;
        try {
          size = statSync(file).size;
        } catch {}
        if (size > MAX_BYTES) writeFileSync(file, line);
        else appendFileSync(file, line);
      } catch {
        // A log that cannot be written must not take the app down.
      }
    },
  };
}
