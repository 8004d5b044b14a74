export { startWebShell, buildWebShell, type WebShell, type WebShellOptions } from './server';
export { serveContract } from './socket';
export { CSP } from '../csp';
