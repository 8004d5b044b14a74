import { oneLine, ProviderError, publicOriginOf, type TunnelProvider } from './provider';

// ngrok through its Node library (@ngrok/ngrok, loaded only when asked for). Its authtoken is a
// secret named by a variable (NGROK_AUTHTOKEN unless told otherwise), read from the shell's
// environment or the Studio's secrets; it is handed to the library and never written anywhere.

export interface NgrokListener {
  url(): string | null;
  close(): Promise<void>;
}
export interface NgrokModule {
  forward(config: { addr: string; authtoken: string; proto?: string }): Promise<NgrokListener>;
}

export const DEFAULT_AUTHTOKEN_VAR = 'NGROK_AUTHTOKEN';

function reasonOf(err: unknown, tokenVar: string): string {
  const e = err as { errorCode?: string; message?: string };
  const code = e?.errorCode ?? /ERR_NGROK_\d+/.exec(String(e?.message))?.[0];
  const text = oneLine(String(e?.message ?? err));
  // ngrok's authentication failures: a mistyped, revoked or malformed authtoken.
  if (code && ['ERR_NGROK_105', 'ERR_NGROK_106', 'ERR_NGROK_107', 'ERR_NGROK_4018'].includes(code))
    return `ngrok refused the authtoken in ${tokenVar} (${code}): check it in your ngrok dashboard`;
  if (/authtoken|authentication/i.test(text)) return `ngrok refused the authtoken in ${tokenVar}: ${text}`;
  if (/failed to (connect|establish|dial)|dns|resolve|network|timed? ?out|tcp connection/i.test(text))
    return `ngrok cannot reach its service (no network?): ${text}`;
  return `ngrok could not open a tunnel${code ? ` (${code})` : ''}: ${text}`;
}

export function ngrokProvider(opts: { tokenVar?: string; load?: () => Promise<NgrokModule> } = {}): TunnelProvider {
  const tokenVar = opts.tokenVar ?? DEFAULT_AUTHTOKEN_VAR;
  const load = opts.load ?? (async () => (await import('@ngrok/ngrok')) as unknown as NgrokModule);
  return {
    name: 'ngrok',
    async open(target, { timeoutMs, env }) {
      const authtoken = env[tokenVar];
      if (!authtoken)
        throw new ProviderError(`ngrok needs an authtoken: set ${tokenVar} (a secret in the Studio, or in your shell)`);
      let ngrok: NgrokModule;
      try {
        ngrok = await load();
      } catch (err) {
        throw new ProviderError(
          `ngrok's library could not load on this machine: ${oneLine(String((err as Error).message))}`,
        );
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, fail) => {
        timer = setTimeout(
          () =>
            fail(new ProviderError(`ngrok gave no public URL within ${Math.round(timeoutMs / 1000)} s (no network?)`)),
          timeoutMs,
        );
      });
      const forwarding = ngrok.forward({ addr: target, authtoken, proto: 'http' });
      let listener: NgrokListener;
      try {
        listener = await Promise.race([forwarding, late]);
      } catch (err) {
        // Opened after we gave up: close it, so nothing stays exposed.
        void forwarding.then((l) => l.close()).catch(() => undefined);
        throw err instanceof ProviderError ? err : new ProviderError(reasonOf(err, tokenVar));
      } finally {
        clearTimeout(timer);
      }
      const publicUrl = publicOriginOf(listener.url() ?? '');
      if (!publicUrl) {
        await listener.close().catch(() => undefined);
        throw new ProviderError(`ngrok opened a tunnel without an https URL (${listener.url()}); nothing is exposed`);
      }
      return { publicUrl, close: () => listener.close().catch(() => undefined), onExit: () => undefined };
    },
  };
}
