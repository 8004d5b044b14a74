import { command, runsHere, runsOnRuntime, runsWithCapsule } from './command';
import { z } from 'zod';
import { runtimeId } from './runtimes';
import type { AgentCard } from '../a2a';

// The Expose commands and views (the gateway that lets outside A2A callers reach a
// capsule). Spread into `commands` in commands.ts; the handlers live in src-main/gateway.

const capsuleId = z.string().min(1).max(200);
const none = z.strictObject({}).optional();

/** The gateway as the Studio shows it. */
export interface GatewayView {
  running: boolean;
  /** The base URL callers use (public origin when set). */
  url?: string;
  host: string;
  port: number;
  publicOrigin?: string;
  trustProxy: boolean;
  /** False when the gateway binds an interface other machines can reach: the UI warns. */
  loopback: boolean;
  /** Thumbprint of the key that signs the cards. */
  signingKid?: string;
  error?: string;
}

/** One exposed capsule (never its token). */
export interface ExposureView {
  capsuleId: string;
  tokenId: string;
  compat03: boolean;
  createdAt: string;
  rotatedAt?: string;
  /** The JSON-RPC URL on the gateway, and its card. */
  url: string;
  cardUrl: string;
  /** The gateway's MCP endpoint (Streamable HTTP), where the same token lists this capsule as a tool. */
  mcpUrl: string;
  /** Whether the capsule runs now (a stopped one answers 404 until launched). */
  running: boolean;
}

/** Answer of expose.enable / expose.rotate: the only time the token is shown. */
export interface ExposeAnswer {
  exposure: ExposureView;
  token: string;
  curl: string;
  /** An MCP client's server entry for the capsule, the token in it (shown once, like the token). */
  mcpConfig: string;
}

/**
 * An MCP client's server entry for the gateway (the `mcpServers` shape of Claude Code's .mcp.json
 * and Cursor's mcp.json), with the token as given: the token itself right after exposing, a
 * placeholder anywhere it stays on screen.
 */
export function mcpClientConfig(mcpUrl: string, token: string, name = 'capsule-studio'): string {
  return JSON.stringify(
    { mcpServers: { [name]: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } } },
    null,
    2,
  );
}

/** One external call from the gateway's access log (the token named by its id only). */
export interface AccessEntryView {
  time: string;
  remote: string;
  tokenId: string | null;
  capsule: string | null;
  method: string;
  status: number;
  outcome: string;
  durationMs: number;
}

export const exposeCommands = {
  'gateway.status': command<GatewayView>()(
    'The gateway: where it listens, whether it binds beyond this machine.',
    none,
    runsHere,
  ),
  'gateway.configure': command<GatewayView>()(
    "Sets where the gateway listens (restarts it). A host other than loopback is reachable from the network: the UI warns. `runtime`: an attached runtime's gateway, on its host.",
    z.strictObject({
      runtime: runtimeId.optional(),
      host: z
        .string()
        .min(1)
        .max(255)
        .regex(/^[a-z0-9.:[\]-]+$/i, 'an IP address or host name')
        .optional(),
      port: z.number().int().min(0).max(65535).optional(),
      publicOrigin: z
        .union([
          z
            .string()
            .url()
            .refine((u) => /^https?:/i.test(u), 'http or https URL'),
          z.null(),
        ])
        .optional(),
      trustProxy: z.boolean().optional(),
    }),
    runsOnRuntime,
  ),
  'expose.list': command<{ gateway: GatewayView; exposures: ExposureView[] }>()(
    "Exposed capsules and the gateway (`runtime`: an attached runtime's, on its host).",
    z.strictObject({ runtime: runtimeId.optional() }).optional(),
    runsOnRuntime,
  ),
  'expose.enable': command<ExposeAnswer>()(
    'Exposes a capsule through the gateway with a new bearer token (shown once, stored hashed).',
    z.strictObject({ capsuleId, compat03: z.boolean().optional() }),
    runsWithCapsule('capsuleId'),
  ),
  'expose.disable': command<void>()(
    'Ends an exposure: its token stops working at once and open streams close.',
    z.strictObject({ capsuleId }),
    runsWithCapsule('capsuleId'),
  ),
  'expose.rotate': command<ExposeAnswer>()(
    'Replaces an exposure token (the old one stops working at once).',
    z.strictObject({ capsuleId }),
    runsWithCapsule('capsuleId'),
  ),
  'expose.update': command<ExposureView>()(
    'Turns A2A 0.3 compatibility on or off for an exposure.',
    z.strictObject({ capsuleId, compat03: z.boolean() }),
    runsWithCapsule('capsuleId'),
  ),
  'expose.card': command<{ card: AgentCard | null }>()(
    'The signed card outside callers get for an exposed, running capsule.',
    z.strictObject({ capsuleId }),
    runsWithCapsule('capsuleId'),
  ),
  'expose.accessLog': command<AccessEntryView[]>()(
    'The latest external calls (oldest first).',
    z.strictObject({ capsuleId: capsuleId.optional(), limit: z.number().int().positive().max(1000).optional() }),
    runsWithCapsule('capsuleId'),
  ),
} as const;

/** Events of the Expose feature (merged into EventMap). */
// `runtime` is set on the events an attached runtime's gateway sent (relayed, its capsule ids
// namespaced): they are about that host's gateway, never this Studio's own.
export interface ExposeEventMap {
  /** An external call went through the gateway (or was refused). */
  'exposure.accessed': { entry: AccessEntryView; runtime?: string };
  /** Exposures or the gateway changed (enable, disable, rotate, configure, another process's edit). */
  'exposure.changed': { gateway: GatewayView; exposures: ExposureView[]; runtime?: string };
}
export const EXPOSE_EVENT_NAMES: (keyof ExposeEventMap)[] = ['exposure.accessed', 'exposure.changed'];
