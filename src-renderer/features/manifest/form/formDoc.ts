import { isMap, isSeq, parseDocument, type Document, type Node } from 'yaml';
import {
  editOpenedManifest,
  openManifestForEdit,
  setManifestValue,
  type OpenedManifest,
} from '../../../../src-shared/manifest';

// The form's one write path: every edit goes through the YAML document (src-shared's
// editOpenedManifest, the same one the core uses for an edge), so comments, quoting, key order
// and ${VAR} references stay as written. Reads are defensive: a draft of any shape gives values
// or undefined, never a throw.
//
// One keystroke would otherwise parse the draft twice (edit, then read back) and stringify it
// twice; parsing is the dear part (bench/manifest-form). So the document of the current draft is
// kept, with its data: an edit changes it in place and it becomes the next draft's. Bound: one
// draft (the one being edited), dropped when another text comes or an edit fails.

interface Cached {
  opened: OpenedManifest;
  data?: Record<string, unknown> | null;
}
let cached: Cached | null = null;

function openedFor(text: string): OpenedManifest {
  if (cached?.opened.source === text) return cached.opened;
  cached = null;
  const opened = openManifestForEdit(text);
  cached = { opened };
  return opened;
}

export type Path = readonly (string | number)[];

/** The draft as plain data, or null when it does not parse as a mapping. */
export function readData(text: string): Record<string, unknown> | null {
  if (cached?.opened.source === text)
    return cached.data !== undefined ? cached.data : (cached.data = plainData(cached.opened.doc.toJS() as unknown));
  try {
    const doc = parseDocument(text);
    if (doc.errors.length > 0 || !isMap(doc.contents)) return null;
    return plainData(doc.toJS() as unknown);
  } catch {
    return null;
  }
}

const plainData = (data: unknown) =>
  data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null;

/** The value at a path of plain data; undefined when any step is missing or of another kind. */
export function valueAt(data: unknown, path: Path): unknown {
  let cur = data;
  for (const seg of path) {
    if (Array.isArray(cur) && typeof seg === 'number') cur = cur[seg];
    else if (cur && typeof cur === 'object' && !Array.isArray(cur)) cur = (cur as Record<string, unknown>)[String(seg)];
    else return undefined;
  }
  return cur;
}

export const textAt = (data: unknown, path: Path): string => {
  const v = valueAt(data, path);
  return v === undefined || v === null || typeof v === 'object' ? '' : String(v);
};

export const listAt = (data: unknown, path: Path): unknown[] => {
  const v = valueAt(data, path);
  return Array.isArray(v) ? v : [];
};

/** One change to the document. Throws when the document's shape does not allow it. */
export type DocEdit = (doc: Document) => void;

/** Applies edits in order and returns the new text; throws with a plain message when one cannot apply. */
export function applyEdits(text: string, ...edits: DocEdit[]): string {
  const opened = openedFor(text);
  let next: string;
  try {
    next = editOpenedManifest(opened, (doc) => {
      for (const e of edits) e(doc);
    });
  } catch (err) {
    cached = null; // the document may be half edited
    throw err;
  }
  if (next !== text) cached = { opened: { ...opened, source: next, before: next } };
  return next;
}

/** What a typed value becomes: a number when it is one (for number fields), else the text; '' removes. */
export function typed(value: string, kind: 'text' | 'int' | 'number'): string | number {
  const v = value.trim();
  // Only a number that reads back as typed ("0." and "1.50" stay text while being typed).
  if (kind !== 'text' && v !== '' && String(Number(v)) === v && (kind === 'number' || Number.isInteger(Number(v))))
    return Number(v);
  return kind === 'text' ? value : v;
}

/** Sets a value, or removes the key when the value is '' or undefined (empty parents are removed too). */
export const setAt =
  (path: Path, value: unknown): DocEdit =>
  (doc) => {
    if (value === '' || value === undefined) return deleteAt(path)(doc);
    setManifestValue(doc, path, value);
  };

/** Sets a value as it is, '' included (a list entry being retyped stays in its place). */
export const setValueAt =
  (path: Path, value: unknown): DocEdit =>
  (doc) =>
    setManifestValue(doc, path, value);

/** Removes a key or list item, then any map it leaves empty (so no `budget: {}` is left behind). */
export const deleteAt =
  (path: Path): DocEdit =>
  (doc) => {
    if (!doc.hasIn(path)) return;
    doc.deleteIn(path);
    for (let n = path.length - 1; n > 0; n--) {
      const parent = doc.getIn(path.slice(0, n), true);
      if (isMap(parent) && parent.items.length === 0 && typeof path[n - 1] === 'string') doc.deleteIn(path.slice(0, n));
      else break;
    }
  };

function seqAt(doc: Document, path: Path) {
  const node = doc.getIn(path, true);
  if (node === undefined || node === null) return undefined;
  if (!isSeq(node)) throw new Error(`${path.join('.')} is not a list in the YAML; fix it there first`);
  // yaml keeps the comment above the first item on the list: give it to the item, so it moves
  // and goes with it.
  const first = node.items[0] as Node | undefined;
  if (node.commentBefore && first && !first.commentBefore && !node.flow) {
    first.commentBefore = node.commentBefore;
    node.commentBefore = undefined;
  }
  return node;
}

/** Appends an item to a list, creating the list when absent; `allow: []` grows into a block list. */
export const pushAt =
  (path: Path, item: unknown): DocEdit =>
  (doc) => {
    const seq = seqAt(doc, path);
    if (!seq) return setManifestValue(doc, path, [item]);
    if (seq.flow && seq.items.length === 0) seq.flow = false;
    seq.items.push(doc.createNode(item) as Node);
  };

/** Moves a list item (its node, comments and all) from one index to another. */
export const moveAt =
  (path: Path, from: number, to: number): DocEdit =>
  (doc) => {
    const seq = seqAt(doc, path);
    if (!seq || from < 0 || to < 0 || from >= seq.items.length || to >= seq.items.length) return;
    const [item] = seq.items.splice(from, 1);
    seq.items.splice(to, 0, item);
  };

/** Removes list item `index`; the list goes when it is left empty. */
export const removeAt =
  (path: Path, index: number): DocEdit =>
  (doc) => {
    const seq = seqAt(doc, path);
    if (!seq || index < 0 || index >= seq.items.length) return;
    seq.items.splice(index, 1);
    if (seq.items.length === 0) deleteAt(path)(doc);
  };
