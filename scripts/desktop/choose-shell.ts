import type { FetchResult } from './fetch-electron';
import type { NativeResult } from './electron-sqlite';

// npm start's one decision: the desktop app, or the web shell. The desktop is the product, so a
// missing Electron binary is fetched first; the web shell is the fallback only when that fails (or
// when asked for with --web), and then the user is told why in one line and how to retry.

export const RETRY_HINT = 'npm run desktop:install';

export interface ShellChoiceDeps {
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The Electron executable if it is already here. */
  binary(): string | undefined;
  fetchElectron(): Promise<FetchResult>;
  /** better-sqlite3 for Electron's ABI (the desktop runs on file-read traces without it). */
  ensureSqlite(): Promise<NativeResult>;
  say(line: string): void;
}

export type ShellChoice =
  { shell: 'electron'; binary: string; args: string[] } | { shell: 'web'; args: string[]; why?: string };

export async function chooseShell(deps: ShellChoiceDeps): Promise<ShellChoice> {
  const args = deps.args.filter((a) => a !== '--web');
  if (args.length !== deps.args.length) return { shell: 'web', args };
  let binary = deps.binary();
  if (!binary) {
    if (deps.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return web(deps, args, 'ELECTRON_SKIP_BINARY_DOWNLOAD is set');
    const fetched = await deps.fetchElectron();
    if (!fetched.ok) return web(deps, args, fetched.reason);
    binary = fetched.binary;
  }
  const sqlite = await deps.ensureSqlite();
  if (!sqlite.ok)
    deps.say(
      `better-sqlite3 for Electron is not available (${sqlite.reason}): the desktop Studio reads traces from the files, slower. Retry: ${RETRY_HINT}`,
    );
  return { shell: 'electron', binary, args };
}

function web(deps: ShellChoiceDeps, args: string[], why: string): ShellChoice {
  deps.say(
    `The desktop app could not start (${why}), so the Studio opens in your browser instead; to retry: ${RETRY_HINT}`,
  );
  return { shell: 'web', args, why };
}
