// Tunnels: reach an exposed capsule from anywhere. The guard (ours) checks a signed link and the
// cookie it is exchanged for; the transport is an existing engine behind a small provider
// interface (cloudflared, ngrok). Above the gateway, which only learns the public origin.
export { openTunnel, parseTtl, DEFAULT_TTL_MS, MAX_TTL_MS, type Tunnel, type TunnelOptions } from './tunnel';
export { COOKIE_NAME, MAX_IN_FLIGHT, type GuardEntry, type GuardOutcome } from './guard';
export { ProviderError, type TunnelProvider, type OpenedTunnel } from './provider';
export { cloudflaredProvider } from './cloudflared';
export { ngrokProvider, DEFAULT_AUTHTOKEN_VAR, type NgrokModule } from './ngrok';
export { providerNamed, PROVIDERS } from './providers';
