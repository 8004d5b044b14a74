// What the CLI and the Studio show a user who just exposed a capsule: a curl call that works.

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A SendMessage curl call to an exposed capsule (a data part when it declares `accepts`). */
export function curlExample(url: string, token: string, opts: { accepts?: boolean } = {}): string {
  const part = opts.accepts ? { data: { replace: 'with input matching the card contract' } } : { text: 'hello from outside' };
  const body = { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [part] } } };
  return [
    `curl -s ${shellQuote(url)} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${token}`)} \\`,
    `  -H 'Content-Type: application/json' -H 'A2A-Version: 1.0' \\`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join('\n');
}

/**
 * An MCP client's server entry for the gateway (the `mcpServers` shape Claude Desktop, Cursor and
 * VS Code read), with the token as written: the Studio passes a placeholder, the CLI the token it
 * just printed.
 */
export function mcpClientConfig(mcpUrl: string, token: string, name = 'capsule-studio'): string {
  return JSON.stringify({ mcpServers: { [name]: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } } }, null, 2);
}
