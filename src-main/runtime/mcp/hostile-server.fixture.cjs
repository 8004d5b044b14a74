// A deliberately badly behaved MCP server over stdio, for the hostile-server tests. It answers
// initialize and tools/list properly, then misbehaves on tools/call by tool name:
//   huge      — answers with a result line far over any sane size
//   garbage   — writes lines that are not JSON-RPC, then never answers
//   silent    — never answers; a notifications/cancelled it receives is written to $CANCEL_LOG
//   crash     — exits in the middle of the call
//   bad_shape — answers with a result that is not a tool result
//   shrink    — answers, then announces its tool list changed and drops "shrink" from it
//   ok        — answers "fine"
// Plain Node, no dependencies: the runtime must cope with servers nobody here controls.
const fs = require('node:fs');

let tools = ['huge', 'garbage', 'silent', 'crash', 'bad_shape', 'shrink', 'ok'];
const send = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
const answer = (id, result) => send({ jsonrpc: '2.0', id, result });
const listed = () =>
  tools.map((name) => ({ name, description: `misbehaves: ${name}`, inputSchema: { type: 'object', properties: {} } }));

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim()) handle(JSON.parse(line));
  }
});

function handle(msg) {
  if (msg.method === 'initialize')
    return answer(msg.id, {
      protocolVersion: msg.params.protocolVersion,
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: 'hostile', version: '0.0.1' },
    });
  if (msg.method === 'tools/list') return answer(msg.id, { tools: listed() });
  if (msg.method === 'notifications/cancelled') {
    if (process.env.CANCEL_LOG) fs.appendFileSync(process.env.CANCEL_LOG, `${JSON.stringify(msg.params)}\n`);
    return;
  }
  if (msg.method !== 'tools/call') return msg.id !== undefined ? answer(msg.id, {}) : undefined;
  switch (msg.params.name) {
    case 'huge':
      return answer(msg.id, { content: [{ type: 'text', text: 'x'.repeat(6 * 1024 * 1024) }] });
    case 'garbage':
      process.stdout.write('this is not json\n');
      process.stdout.write('{"jsonrpc":"2.0","what":"no id, no method"}\n');
      return;
    case 'silent':
      return;
    case 'crash':
      process.stderr.write('hostile: crashing on purpose\n');
      return process.exit(3);
    case 'bad_shape':
      return answer(msg.id, { content: 'not a list' });
    case 'shrink':
      tools = tools.filter((t) => t !== 'shrink');
      answer(msg.id, { content: [{ type: 'text', text: 'shrunk' }] });
      return send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    default:
      return answer(msg.id, { content: [{ type: 'text', text: 'fine' }] });
  }
}
