export { startWebShell, buildWebShell, type WebShell, type WebShellOptions } from './server';
export {
  startRemoteStudio,
  buildRemoteStudio,
  STUDIO_TOKEN_NAME,
  type RemoteStudio,
  type RemoteStudioOptions,
} from './remote';
export { serveContract } from './socket';
export { CSP } from '../csp';
export { pointEarlierAddresses, type EarlierAddresses } from './moved';
