import { isMap, isSeq, parseDocument, type Document, YAMLMap } from 'yaml';
import { z } from 'zod';
import type { IssueView, Position } from '../../src-shared/contract';

// formation.yaml: which capsules (manifest paths), node positions, and remote agents. Read
// leniently (a broken entry is an issue, the rest still loads) and edited through the yaml
// Document API so the user's comments, key order and formatting survive every Studio edit.

export const FORMATION_FILE = 'formation.yaml';

const positionSchema = z.object({ x: z.number().finite(), y: z.number().finite() });
const capsuleEntry = z.object({ id: z.string().min(1), manifest: z.string().min(1), position: positionSchema.optional() });
const remoteEntry = z.object({ id: z.string().min(1), url: z.string().url(), position: positionSchema.optional() });

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
export interface FormationFile {
  capsules: FormationCapsuleEntry[];
  remotes: FormationRemoteEntry[];
  issues: IssueView[];
}

export const EMPTY_FORMATION = '# Capsule Studio formation: capsules (manifest files) and remote agents, with node positions.\ncapsules: []\nremotes: []\n';

function lineOf(source: string, offset: number | undefined): number | undefined {
  if (offset === undefined) return undefined;
  let line = 1;
  for (let i = 0; i < offset && i < source.length; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/** Reads formation.yaml text; never throws (problems come back as issues). */
export function readFormation(source: string): FormationFile {
  const doc = parseDocument(source);
  const out: FormationFile = { capsules: [], remotes: [], issues: [] };
  for (const e of doc.errors) out.issues.push({ line: e.linePos?.[0]?.line, column: e.linePos?.[0]?.col, path: '', message: e.message.split('\n')[0] });
  if (doc.errors.length) return out;
  const root = doc.contents;
  if (root !== null && !isMap(root)) {
    out.issues.push({ line: 1, path: '', message: 'formation.yaml must be a mapping with `capsules` and `remotes`' });
    return out;
  }
  const seen = new Set<string>();
  const readList = <T>(key: 'capsules' | 'remotes', schema: z.ZodType<T>, push: (v: T) => void) => {
    const seq = doc.get(key, true);
    if (seq === undefined || seq === null) return;
    if (!isSeq(seq)) {
      out.issues.push({ line: lineOf(source, (seq as { range?: number[] }).range?.[0]), path: key, message: `${key} must be a list` });
      return;
    }
    seq.items.forEach((item, i) => {
      const parsed = schema.safeParse((item as { toJSON?: () => unknown }).toJSON?.() ?? item);
      const line = lineOf(source, (item as { range?: number[] }).range?.[0]);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        out.issues.push({ line, path: `${key}.${i}${issue.path.length ? `.${issue.path.join('.')}` : ''}`, message: issue.message });
        return;
      }
      const id = (parsed.data as { id: string }).id;
      if (seen.has(id)) {
        out.issues.push({ line, path: `${key}.${i}.id`, message: `duplicate id ${id}` });
        return;
      }
      seen.add(id);
      push(parsed.data);
    });
  };
  const place = (p: Position | undefined) => (p ? { position: p } : { position: { x: 0, y: 0 }, unplaced: true as const });
  readList('capsules', capsuleEntry, (c) => out.capsules.push({ id: c.id, manifest: c.manifest, ...place(c.position) }));
  readList('remotes', remoteEntry, (r) => out.remotes.push({ id: r.id, url: r.url, ...place(r.position) }));
  return out;
}

function editDoc(source: string, edit: (doc: Document) => void): string {
  const doc = parseDocument(source || EMPTY_FORMATION);
  if (doc.errors.length) throw new Error(`formation.yaml cannot be edited while it has errors: ${doc.errors[0].message.split('\n')[0]}`);
  if (!isMap(doc.contents)) doc.contents = new YAMLMap() as unknown as typeof doc.contents;
  edit(doc);
  return doc.toString();
}

function seqOf(doc: Document, key: 'capsules' | 'remotes') {
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

function indexOf(doc: Document, key: 'capsules' | 'remotes', id: string): number {
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
export function addEntry(source: string, key: 'capsules' | 'remotes', entry: { id: string; position: Position } & Record<string, unknown>): string {
  return editDoc(source, (doc) => {
    const { position, ...rest } = entry;
    const node = doc.createNode(rest) as YAMLMap;
    node.set('position', positionNode(doc, position));
    seqOf(doc, key).add(node);
  });
}

/** Removes an entry by id (no change when absent). */
export function removeEntry(source: string, key: 'capsules' | 'remotes', id: string): string {
  return editDoc(source, (doc) => {
    const i = indexOf(doc, key, id);
    if (i >= 0) doc.deleteIn([key, i]);
  });
}

/** Moves a node; keeps the flow or block style the user wrote. */
export function setPosition(source: string, key: 'capsules' | 'remotes', id: string, p: Position): string {
  return editDoc(source, (doc) => {
    const i = indexOf(doc, key, id);
    if (i < 0) throw new Error(`no ${key === 'capsules' ? 'capsule' : 'remote'} ${id} in formation.yaml`);
    const existing = doc.getIn([key, i, 'position'], true);
    if (isMap(existing)) {
      existing.set('x', Math.round(p.x));
      existing.set('y', Math.round(p.y));
    } else doc.setIn([key, i, 'position'], positionNode(doc, p));
  });
}
