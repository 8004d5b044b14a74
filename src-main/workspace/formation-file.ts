import { isMap, isSeq, parseDocument, type Document, YAMLMap } from 'yaml';
import { z } from 'zod';
import {
  toolServerDefinition,
  type IssueView,
  type Position,
  type ToolServerDefinition,
} from '../../src-shared/contract';
import { formatYamlError, yamlErrorMessage } from '../../src-shared/manifest';

// formation.yaml: which capsules (manifest paths), node positions, remote agents, and the tool
// servers (MCP) the formation offers (`tool_servers`: name as id, definition, position). Read
// leniently (a broken entry is an issue, the rest still loads) and edited through the yaml
// Document API so the user's comments, key order and formatting survive every Studio edit.

export const FORMATION_FILE = 'formation.yaml';

const positionSchema = z.object({ x: z.number().finite(), y: z.number().finite() });
const capsuleEntry = z.object({
  id: z.string().min(1),
  manifest: z.string().min(1),
  position: positionSchema.optional(),
});
const remoteEntry = z.object({ id: z.string().min(1), url: z.string().url(), position: positionSchema.optional() });
const toolServerEntry = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/i, 'a tool server name: letters, digits or dashes (max 32)'),
    position: positionSchema.optional(),
  })
  .passthrough()
  .transform((e, ctx) => {
    const { id, position, ...rest } = e;
    const def = toolServerDefinition.safeParse(rest);
    if (!def.success) {
      for (const issue of def.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return { id, position, def: def.data };
  });

/** The node kinds formation.yaml lists. */
export type FormationListKey = 'capsules' | 'remotes' | 'tool_servers';

export interface FormationCapsuleEntry {
  id: string;
  manifest: string;
  position: Position;
  /** The entry has no position (it reads as 0,0). */
  unplaced?: true;
}
export interface FormationRemoteEntry {
  id: string;
  url: string;
  position: Position;
  unplaced?: true;
}
export interface FormationToolServerEntry {
  id: string;
  def: ToolServerDefinition;
  position: Position;
  unplaced?: true;
}
export interface FormationFile {
  capsules: FormationCapsuleEntry[];
  remotes: FormationRemoteEntry[];
  toolServers: FormationToolServerEntry[];
  issues: IssueView[];
}

export const EMPTY_FORMATION =
  '# Capsule Studio formation: capsules (manifest files) and remote agents, with node positions.\ncapsules: []\nremotes: []\n';

function lineOf(source: string, offset: number | undefined): number | undefined {
  if (offset === undefined) return undefined;
  let line = 1;
  for (let i = 0; i < offset && i < source.length; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/** Reads formation.yaml text; never throws (problems come back as issues). */
export function readFormation(source: string): FormationFile {
  const doc = parseDocument(source);
  const out: FormationFile = { capsules: [], remotes: [], toolServers: [], issues: [] };
  for (const e of doc.errors)
    out.issues.push({
      line: e.linePos?.[0]?.line,
      column: e.linePos?.[0]?.col,
      path: '',
      message: yamlErrorMessage(e),
    });
  if (doc.errors.length) return out;
  const root = doc.contents;
  if (root !== null && !isMap(root)) {
    out.issues.push({ line: 1, path: '', message: 'formation.yaml must be a mapping with `capsules` and `remotes`' });
    return out;
  }
  const seen = new Set<string>();
  const readList = <T>(key: FormationListKey, schema: z.ZodType<T, any>, push: (v: T) => void) => {
    const seq = doc.get(key, true);
    if (seq === undefined || seq === null) return;
    if (!isSeq(seq)) {
      out.issues.push({
        line: lineOf(source, (seq as { range?: number[] }).range?.[0]),
        path: key,
        message: `${key} must be a list`,
      });
      return;
    }
    seq.items.forEach((item, i) => {
      const parsed = schema.safeParse((item as { toJSON?: () => unknown }).toJSON?.() ?? item);
      const line = lineOf(source, (item as { range?: number[] }).range?.[0]);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        out.issues.push({
          line,
          path: `${key}.${i}${issue.path.length ? `.${issue.path.join('.')}` : ''}`,
          message: issue.message,
        });
        return;
      }
      // Tool servers are drawn as mcp:<name>, so only capsules and remotes share one id space.
      const id = `${key === 'tool_servers' ? 'mcp:' : ''}${(parsed.data as { id: string }).id}`;
      if (seen.has(id)) {
        out.issues.push({ line, path: `${key}.${i}.id`, message: `duplicate id ${id}` });
        return;
      }
      seen.add(id);
      push(parsed.data);
    });
  };
  const place = (p: Position | undefined) =>
    p ? { position: p } : { position: { x: 0, y: 0 }, unplaced: true as const };
  readList('capsules', capsuleEntry, (c) =>
    out.capsules.push({ id: c.id, manifest: c.manifest, ...place(c.position) }),
  );
  readList('remotes', remoteEntry, (r) => out.remotes.push({ id: r.id, url: r.url, ...place(r.position) }));
  const names = new Set<string>();
  readList('tool_servers', toolServerEntry, (t) => {
    // Server names are unique whatever their case (manifests compare them so).
    if (names.has(t.id.toLowerCase()))
      return out.issues.push({ path: 'tool_servers', message: `duplicate tool server ${t.id}` });
    names.add(t.id.toLowerCase());
    out.toolServers.push({ id: t.id, def: t.def, ...place(t.position) });
  });
  return out;
}

function editDoc(source: string, edit: (doc: Document) => void): string {
  const doc = parseDocument(source || EMPTY_FORMATION);
  if (doc.errors.length)
    throw new Error(`formation.yaml cannot be edited while it has errors: ${formatYamlError(doc.errors[0])}`);
  if (!isMap(doc.contents)) doc.contents = new YAMLMap() as unknown as typeof doc.contents;
  edit(doc);
  return doc.toString();
}

function seqOf(doc: Document, key: FormationListKey) {
  let seq = doc.get(key, true);
  if (!isSeq(seq)) {
    doc.set(key, doc.createNode([]));
    seq = doc.get(key, true);
  }
  if (!isSeq(seq)) throw new Error(`formation.yaml: ${key} is not a list`);
  // An empty list written as `[]` would keep flow style for its new block entries: switch to block.
  if (seq.flow && seq.items.length === 0) seq.flow = false;
  return seq;
}

function indexOf(doc: Document, key: FormationListKey, id: string): number {
  const seq = doc.get(key, true);
  if (!isSeq(seq)) return -1;
  return seq.items.findIndex((it) => isMap(it) && it.get('id') === id);
}

const positionNode = (doc: Document, p: Position) => {
  const node = doc.createNode({ x: Math.round(p.x), y: Math.round(p.y) });
  node.flow = true;
  return node;
};

/** Adds an entry to `capsules` or `remotes`. */
export function addEntry(
  source: string,
  key: FormationListKey,
  entry: { id: string; position: Position } & Record<string, unknown>,
): string {
  return editDoc(source, (doc) => {
    const { position, ...rest } = entry;
    const node = doc.createNode(rest) as YAMLMap;
    node.set('position', positionNode(doc, position));
    seqOf(doc, key).add(node);
  });
}

/** Removes an entry by id (no change when absent). */
export function removeEntry(source: string, key: FormationListKey, id: string): string {
  return editDoc(source, (doc) => {
    const i = indexOf(doc, key, id);
    if (i >= 0) doc.deleteIn([key, i]);
    // tool_servers is optional: the last one gone, the list goes too (older formations never had it).
    const left = doc.get(key, true);
    if (key === 'tool_servers' && isSeq(left) && left.items.length === 0) doc.delete(key);
  });
}

/** Replaces an entry's fields besides id and position (a tool server's new definition), keeping its place in the list and its comments. */
export function replaceFields(
  source: string,
  key: FormationListKey,
  id: string,
  fields: Record<string, unknown>,
): string {
  return editDoc(source, (doc) => {
    const i = indexOf(doc, key, id);
    if (i < 0) throw new Error(`no ${id} in formation.yaml ${key}`);
    const map = doc.getIn([key, i], true) as YAMLMap;
    for (const pair of [...map.items]) {
      const k = String((pair.key as { value?: unknown })?.value ?? pair.key);
      if (k !== 'id' && k !== 'position' && !(k in fields)) map.delete(k);
    }
    for (const [k, v] of Object.entries(fields)) {
      const old = JSON.stringify(map.toJSON()[k]);
      if (old !== JSON.stringify(v)) map.set(k, doc.createNode(v));
    }
  });
}

/** Moves a node; keeps the flow or block style the user wrote. */
export function setPosition(source: string, key: FormationListKey, id: string, p: Position): string {
  return editDoc(source, (doc) => {
    const i = indexOf(doc, key, id);
    if (i < 0)
      throw new Error(
        `no ${key === 'capsules' ? 'capsule' : key === 'remotes' ? 'remote' : 'tool server'} ${id} in formation.yaml`,
      );
    const existing = doc.getIn([key, i, 'position'], true);
    if (isMap(existing)) {
      existing.set('x', Math.round(p.x));
      existing.set('y', Math.round(p.y));
    } else doc.setIn([key, i, 'position'], positionNode(doc, p));
  });
}
