// What the CLI and the Studio show a user who just exposed a capsule: a curl call that works, and
// an MCP client's config (the shared helper, which the Studio's page uses too).

export { mcpClientConfig } from '../../src-shared/contract';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A SendMessage curl call to an exposed capsule (a data part when it declares `accepts`). */
export function curlExample(url: string, token: string, opts: { accepts?: boolean } = {}): string {
  const part = opts.accepts
    ? { data: { replace: 'with input matching the card contract' } }
    : { text: 'hello from outside' };
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [part] } },
  };
  return [
    `curl -s ${shellQuote(url)} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${token}`)} \\`,
    `  -H 'Content-Type: application/json' -H 'A2A-Version: 1.0' \\`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join('\n');
}
