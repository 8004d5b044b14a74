import { cloudflaredProvider } from './cloudflared';
import { ngrokProvider } from './ngrok';
import type { TunnelProvider } from './provider';

export const PROVIDERS = ['cloudflared', 'ngrok'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** The provider a user named (cloudflared by default: a quick tunnel needs no account). */
export function providerNamed(name: string | undefined, opts: { authtokenVar?: string } = {}): TunnelProvider {
  switch (name ?? 'cloudflared') {
    case 'cloudflared':
      return cloudflaredProvider(process.env.CLOUDFLARED_PATH || 'cloudflared');
    case 'ngrok':
      return ngrokProvider({ tokenVar: opts.authtokenVar });
    default:
      throw new RangeError(`unknown tunnel provider "${name}": use ${PROVIDERS.join(' or ')}`);
  }
}
