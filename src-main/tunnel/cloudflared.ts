import { spawn } from 'node:child_process';
import { oneLine, ProviderError, type OpenedTunnel, type TunnelProvider } from './provider';

// cloudflared's quick tunnel: `cloudflared tunnel --url <guard>` needs no account and prints its
// https://<words>.trycloudflare.com address among its log lines. We run it as a child process with
// a bounded wait for that line; anything it says before giving up becomes the one-line reason.

const QUICK_URL = /https:\/\/[a-z0-9-]+\.trycloudflare\.com/i;
/** Lines that mean the machine cannot reach Cloudflare at all. */
const NO_NETWORK =
  /no such host|dial tcp|network is unreachable|i\/o timeout|connection refused|failed to (request|unmarshal) quick tunnel|lookup /i;
const GRACE_MS = 3_000;

export function cloudflaredProvider(bin = 'cloudflared'): TunnelProvider {
  return {
    name: 'cloudflared',
    open(target, { timeoutMs, env }) {
      return new Promise<OpenedTunnel>((opened, failed) => {
        // Only what cloudflared needs from the environment: no secret of ours goes with it.
        const childEnv: Record<string, string> = {};
        for (const k of ['PATH', 'HOME', 'TMPDIR', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'])
          if (env[k] !== undefined) childEnv[k] = env[k] as string;
        const child = spawn(bin, ['tunnel', '--no-autoupdate', '--url', target], {
          env: childEnv,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let settled = false;
        let lastLine = '';
        let noNetwork = '';
        const exitListeners: ((why: string) => void)[] = [];
        const stop = () =>
          new Promise<void>((gone) => {
            if (child.exitCode !== null || child.signalCode !== null) return gone();
            child.once('exit', () => gone());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), GRACE_MS).unref();
          });
        const fail = (message: string) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          void stop();
          failed(new ProviderError(message));
        };
        const timer = setTimeout(
          () =>
            fail(
              noNetwork
                ? `cloudflared cannot reach Cloudflare (no network?): ${noNetwork}`
                : `cloudflared gave no public URL within ${Math.round(timeoutMs / 1000)} s${lastLine ? ` (last said: ${lastLine})` : ''}`,
            ),
          timeoutMs,
        );
        let buffered = '';
        const onData = (chunk: Buffer) => {
          buffered = (buffered + chunk.toString('utf8')).slice(-8192);
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          for (const line of lines) {
            if (line.trim()) lastLine = oneLine(line);
            if (NO_NETWORK.test(line)) noNetwork = oneLine(line);
            const url = QUICK_URL.exec(line)?.[0];
            if (url && !settled && !/api\.trycloudflare\.com/i.test(url)) {
              settled = true;
              clearTimeout(timer);
              opened({ publicUrl: url.toLowerCase(), close: stop, onExit: (l) => exitListeners.push(l) });
            }
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.on('error', (err: NodeJS.ErrnoException) => {
          fail(
            err.code === 'ENOENT'
              ? `cloudflared is not installed (no "${bin}" on PATH): install it from Cloudflare, or use --provider ngrok`
              : `cloudflared could not start: ${err.message}`,
          );
        });
        child.on('exit', (code, signal) => {
          const why = noNetwork
            ? `cloudflared cannot reach Cloudflare (no network?): ${noNetwork}`
            : `cloudflared stopped (${signal ?? `exit ${code}`})${lastLine ? `: ${lastLine}` : ''}`;
          if (!settled) return fail(why);
          for (const l of exitListeners) l(why);
        });
      });
    },
  };
}
