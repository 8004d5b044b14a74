// What a tunnel engine must do for us: carry the public internet to one loopback URL (the guard)
// and say at which public https URL. The engines are other people's (cloudflared, ngrok): we never
// relay traffic ourselves. A provider that cannot start throws a ProviderError whose message is one
// line saying why, and leaves nothing running.

export interface OpenedTunnel {
  /** The public https origin, e.g. https://abc.trycloudflare.com. */
  publicUrl: string;
  close(): Promise<void>;
  /** Called once if the engine ends on its own (crash, network gone); the tunnel is then down. */
  onExit(listener: (why: string) => void): void;
}

export interface OpenOptions {
  /** How long the engine may take to give a public URL. */
  timeoutMs: number;
  /** The environment secrets come from (`${VAR}`): the shell's, plus the Studio's secrets. */
  env: Record<string, string | undefined>;
}

export interface TunnelProvider {
  readonly name: string;
  open(target: string, opts: OpenOptions): Promise<OpenedTunnel>;
}

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
}

/** The first line of an engine's message, trimmed and bounded: what a user is shown. */
export function oneLine(text: string, max = 200): string {
  const line = text.split(/\r?\n/).find((l) => l.trim()) ?? text;
  const t = line.trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** A public URL an engine reported is used only when it is https with a plain host. */
export function publicOriginOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const u = new URL(url);
  return u.protocol === 'https:' && /^[a-z0-9.-]+$/i.test(u.hostname) ? u.origin : undefined;
}
