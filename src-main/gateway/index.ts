// The gateway: exposure of capsules to outside callers (auth, origin checks, index card, signed
// cards, the `accepts` contract, A2A 0.3 compatibility, and an MCP endpoint at /mcp: mcp-*.ts). Its
// Studio commands are the workspace's (workspace/expose-commands.ts), which uses the gateway from above.
export { createGateway, isLoopback, type Gateway, type GatewayOptions } from './server';
export { MCP_LIMITS, MCP_PATH, type McpLimits } from './mcp-endpoint';
export { mcpClientConfig } from './usage';
export { createExposureStore, EXPOSURES_FILE, type ExposureStore, type ExposureInfo } from './exposures';
export { createAccessLog, pathForLog, ACCESS_LOG_FILE, type AccessEntry, type AccessLog } from './access-log';
export {
  createCardSigner,
  verifyCardSignature,
  signatureJku,
  signingPayload,
  SIGNING_KEY_FILE,
  type CardSigner,
  type CardVerification,
} from './signing';
export { canonicalJson } from './jcs';
export { checkAccepts } from '../door';
export {
  capsuleCard,
  indexCard,
  indexEntriesOf,
  card03,
  ACCEPTS_EXTENSION_URI,
  GATEWAY_INDEX_EXTENSION_URI,
  type IndexEntry,
} from './cards';
export type { ResolvedCapsule, ResolveCapsule } from './types';
export { sessionCapsule } from './session-capsule';
export { verifyRemoteCard, type RemoteCardSignature } from './remote-verify';
export { curlExample } from './usage';
export { gatewayDataDir, readGatewayRecord, writeGatewayRecord, removeGatewayRecord, type GatewayRecord } from './home';
export { runningResolver, urlResolver } from './running';
export { readSettings, writeSettings, type GatewaySettings } from './studio-settings';
export {
  readTunnels,
  tunnelsReader,
  editTunnels,
  tunnelState,
  proofHashOf,
  TUNNELS_FILE,
  TUNNEL_PROOF_HEADER,
  type TunnelRecord,
  type TunnelState,
} from './tunnels';
