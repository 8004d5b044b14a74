import { isMap, isScalar, isSeq, type Document, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { matchAllow } from './allow';

// The edits an edge capsule -> tool server (MCP) makes to the capsule's manifest: its entry in
// capabilities.mcp.servers, the `tools` it narrows to, and for a remote server the allow entry its
// URL needs. The allow entry the edge adds carries a comment naming the server, so deleting the
// edge takes back only what the edge added: an entry the user wrote stays. Sections the edge
// created and left empty go with it, so draw + delete gives the file back byte for byte.

const SERVERS_PATH = ['capabilities', 'mcp', 'servers'];
const ALLOW_PATH = ['capabilities', 'network', 'allow'];

/** The comment on an allow entry added by an edge to the tool server `name`. */
export const mcpAllowMarker = (name: string) => ` for tool server ${name}`;
/** Added to the marker when the edge created the allow list itself (deleting the edge removes the list too). */
const CREATED_LIST = ' (list added with it)';

/** An MCP server entry as a manifest holds it (the `capabilities.mcp.servers[]` keys). */
export type McpServerEntry = { name: string } & Record<string, unknown>;

const sameName = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

function serversSeq(doc: Document): YAMLSeq | undefined {
  const node = doc.getIn(SERVERS_PATH, true);
  return isSeq(node) ? node : undefined;
}

function entryIndex(doc: Document, name: string): number {
  return serversSeq(doc)?.items.findIndex((it) => isMap(it) && sameName(it.get('name'), name)) ?? -1;
}

/** Deletes the map at `path` and its parents up to `stop` levels when they were left empty. */
function pruneEmpty(doc: Document, path: string[], levels: number): void {
  for (let n = path.length; n > path.length - levels; n--) {
    const node = doc.getIn(path.slice(0, n), true);
    const empty =
      (isMap(node) || isSeq(node)) &&
      node.items.length === 0 &&
      !(node as YAMLMap).commentBefore &&
      !(node as YAMLMap).comment;
    if (!empty) return;
    doc.deleteIn(path.slice(0, n));
  }
}

/**
 * Adds the server entry (replacing none: an entry of that name already there is left as it is, the
 * edge exists) and, for a remote server, its URL to the allow list unless an entry already covers it.
 */
export function addMcpServer(doc: Document, server: McpServerEntry): void {
  if (entryIndex(doc, server.name) >= 0) return;
  const seq = serversSeq(doc);
  const node = doc.createNode(server) as YAMLMap;
  // `tools` is one line, as setMcpTools writes it (so an undone delete writes the same text).
  const tools = node.get('tools', true);
  if (isSeq(tools)) tools.flow = true;
  if (seq) {
    if (seq.flow && seq.items.length === 0) seq.flow = false;
    seq.add(node);
  } else {
    const list = doc.createNode([]) as YAMLSeq;
    list.add(node);
    doc.setIn(SERVERS_PATH, list);
  }
  const url = typeof server.url === 'string' ? server.url : undefined;
  if (!url) return;
  const allowNode = doc.getIn(ALLOW_PATH, true);
  const allow = isSeq(allowNode)
    ? allowNode.items.flatMap((it) => (isScalar(it) && typeof it.value === 'string' ? [it.value] : []))
    : [];
  if (matchAllow(url, allow) !== undefined) return;
  const entry = doc.createNode(url) as Scalar;
  entry.comment = mcpAllowMarker(server.name);
  if (isSeq(allowNode)) {
    if (allowNode.flow && allowNode.items.length === 0) allowNode.flow = false;
    allowNode.add(entry);
  } else {
    const list = doc.createNode([]) as YAMLSeq;
    entry.comment += CREATED_LIST;
    list.add(entry);
    doc.setIn(ALLOW_PATH, list);
  }
}

/** Removes the server entry, the allow entry its edge added, and the sections left empty. */
export function removeMcpServer(doc: Document, name: string): void {
  const i = entryIndex(doc, name);
  if (i >= 0) {
    doc.deleteIn([...SERVERS_PATH, i]);
    pruneEmpty(doc, SERVERS_PATH, 3);
  }
  const allow = doc.getIn(ALLOW_PATH, true);
  if (!isSeq(allow)) return;
  const marker = mcpAllowMarker(name).trim().toLowerCase();
  const ours = (it: unknown) =>
    isScalar(it) &&
    (it.comment?.trim().toLowerCase() === marker || it.comment?.trim().toLowerCase() === `${marker}${CREATED_LIST}`);
  const createdList = allow.items.some((it) => ours(it) && (it as Scalar).comment!.endsWith(CREATED_LIST));
  allow.items = allow.items.filter((it) => !ours(it));
  if (createdList) pruneEmpty(doc, ALLOW_PATH, 3);
}

/** Narrows the tools the capsule may call (null: all of the server's tools, the key removed). */
export function setMcpTools(doc: Document, name: string, tools: readonly string[] | null): void {
  const i = entryIndex(doc, name);
  if (i < 0) throw new Error(`capabilities.mcp.servers has no server named ${name}`);
  const path = [...SERVERS_PATH, i, 'tools'];
  if (tools === null) {
    if (doc.hasIn(path)) doc.deleteIn(path);
    return;
  }
  const existing = doc.getIn(path, true);
  const node = doc.createNode([...tools]) as YAMLSeq;
  // Keep the user's style: a flow list stays one line; a new list is one line, as the README writes them.
  node.flow = isSeq(existing) ? existing.flow === true : true;
  if (isSeq(existing)) {
    existing.items = node.items;
    existing.flow = node.flow;
  } else (doc.getIn([...SERVERS_PATH, i], true) as YAMLMap).set('tools', node);
}
