import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { openBrowser } from './open-browser';

// The web shell's start, as the user sees it: the server's lines pass through, and once it
// answers, the browser opens (unless --no-open) and the address is the last line printed, so it
// is what the eye lands on, and what a script reads.

/** The server's "ready" line: `studio: http://127.0.0.1:PORT`. */
const READY = /^studio: (https?:\/\/\S+)\s*$/;

export interface WebStartOptions {
  /** The server's stdout. */
  stdout: Readable;
  open: boolean;
  env: NodeJS.ProcessEnv;
  print(line: string): void;
  openBrowser?: typeof openBrowser;
}

/** Resolves with the Studio's address once it is served (and the browser asked to open it). */
export function announceWebShell(opts: WebStartOptions): Promise<string | undefined> {
  const lines = createInterface({ input: opts.stdout, crlfDelay: Infinity });
  return new Promise((resolve) => {
    let url: string | undefined;
    // Lines the server prints while the browser is being opened wait, so the address stays last.
    let held: string[] | undefined;
    lines.on('line', (line) => {
      const ready = url === undefined ? READY.exec(line) : null;
      if (!ready) return held ? void held.push(line) : opts.print(line);
      const found = ready[1];
      url = found;
      held = [];
      void (async () => {
        let said: string | undefined;
        if (opts.open) {
          const { opened, tried } = await (opts.openBrowser ?? openBrowser)(found, opts.env);
          said = opened
            ? 'Opening the Studio in your browser…'
            : `Could not open a browser (tried ${tried.join(', ')}; set BROWSER to choose one). Open this address:`;
        }
        for (const l of held ?? []) opts.print(l);
        held = undefined;
        if (said) opts.print(said);
        opts.print(`Capsule Studio: ${found}`);
        resolve(found);
      })();
    });
    lines.once('close', () => {
      if (url === undefined) resolve(undefined);
    });
  });
}
