export { startWebShell, buildWebShell, CSP, type WebShell, type WebShellOptions } from './server';
export { serveContract } from './socket';
