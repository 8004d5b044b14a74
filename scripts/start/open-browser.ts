import { spawn } from 'node:child_process';

// npm start's web shell opens the Studio in the user's browser. The BROWSER variable wins (the
// convention xdg-utils and Python's webbrowser share: a command, `%s` standing for the address, or
// several commands separated by ':' tried in order); otherwise the platform's own opener.

export interface OpenCommand {
  command: string;
  args: string[];
}

/** The commands to try, in order, to open `url`. */
export function browserCommands(
  url: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): OpenCommand[] {
  const fromEnv = (env.BROWSER ?? '')
    .split(platform === 'win32' ? ';' : ':')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c): OpenCommand => {
      // A plain command line split on spaces: BROWSER names a program, perhaps with flags, not a shell script.
      const [command, ...rest] = c.split(/\s+/);
      return {
        command,
        args: rest.some((a) => a.includes('%s')) ? rest.map((a) => a.replaceAll('%s', url)) : [...rest, url],
      };
    });
  const platformOpener: OpenCommand =
    platform === 'darwin'
      ? { command: 'open', args: [url] }
      : platform === 'win32'
        ? { command: 'cmd', args: ['/c', 'start', '""', url] }
        : { command: 'xdg-open', args: [url] };
  return [...fromEnv, platformOpener];
}

export type Launch = (cmd: OpenCommand) => Promise<boolean>;

/** Tries each command until one starts; says which one failed only when none did. */
export async function openBrowser(
  url: string,
  env: NodeJS.ProcessEnv,
  launch: Launch = launchDetached,
  platform?: NodeJS.Platform,
): Promise<{ opened: boolean; tried: string[] }> {
  const tried: string[] = [];
  for (const cmd of browserCommands(url, env, platform)) {
    tried.push(cmd.command);
    if (await launch(cmd)) return { opened: true, tried };
  }
  return { opened: false, tried };
}

/** Starts the opener on its own (it may outlive npm start, as a browser does) and reports whether it ran. */
function launchDetached(cmd: OpenCommand): Promise<boolean> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(cmd.command, cmd.args, {
        detached: true,
        stdio: 'ignore',
        windowsVerbatimArguments: cmd.command === 'cmd',
      });
    } catch {
      return resolve(false);
    }
    child.once('error', () => resolve(false));
    // xdg-open and open return quickly; a browser named in BROWSER keeps running, which is success too.
    child.once('exit', (code) => resolve(code === 0));
    const settle = setTimeout(() => resolve(true), 3000);
    settle.unref();
    child.unref();
  });
}
