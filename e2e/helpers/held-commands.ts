import type { Page } from '@playwright/test';
import { WS_PATH } from '../../src-shared/contract/client';

// A slow core, for the Esc specs: the page's contract socket goes through Playwright, which holds
// back the commands named in `held` (they never reach the core, so they wait as a slow command
// does) and notes the cancel the page sends for each. Everything else passes both ways untouched.

export interface HeldCommands {
  /** Commands to hold back from now on; emptied, they pass again. */
  held: Set<string>;
  /** The held commands the page canceled, in order. */
  canceled: string[];
}

export async function holdCommands(page: Page): Promise<HeldCommands> {
  const state: HeldCommands = { held: new Set(), canceled: [] };
  await page.routeWebSocket(
    (url) => url.pathname === WS_PATH,
    (ws) => {
      const server = ws.connectToServer();
      const waiting = new Map<number, string>();
      ws.onMessage((message) => {
        const msg = JSON.parse(String(message)) as { type: string; id: number; cmd?: string };
        if (msg.type === 'invoke' && msg.cmd && state.held.has(msg.cmd)) return void waiting.set(msg.id, msg.cmd);
        if (msg.type === 'cancel' && waiting.has(msg.id)) {
          state.canceled.push(waiting.get(msg.id)!);
          waiting.delete(msg.id);
          return;
        }
        server.send(message);
      });
    },
  );
  return state;
}
