// The names the model sees for MCP tools: `<server>__<tool>`. A server's name has no underscore
// (the manifest allows letters, digits and dashes), so the part before the first `__` is always
// the server, and two servers' tools never collide. Providers accept only [A-Za-z0-9_-], at most
// 64 characters: other characters become `_`, a longer name is cut, and a clash that makes inside
// one server (two tools that differ only in a dot and an underscore) takes a number.

const MAX_NAME = 64;

/** Model-visible name -> the server's own tool name, for the tools of one server, in list order. */
export function modelToolNames(server: string, tools: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const tool of tools) {
    const base = `${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, MAX_NAME);
    let name = base;
    for (let n = 2; out.has(name); n++) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
    out.set(name, tool);
  }
  return out;
}
