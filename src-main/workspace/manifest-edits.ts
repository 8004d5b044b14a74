import { isMap, isSeq, type Document } from 'yaml';
import { sameAllowEntry } from '../../src-shared/manifest';
import { editableDocument } from './manifest-view';

// The edits an edge makes to manifests, done on the YAML Document so comments, key order and
// formatting survive. Each returns the new text (unchanged text when there was nothing to do).

function pruneEmpty(doc: Document, path: string[]): void {
  for (let n = path.length; n > 0; n--) {
    const node = doc.getIn(path.slice(0, n), true);
    const empty = (isMap(node) || isSeq(node)) && node.items.length === 0;
    if (!empty) return;
    doc.deleteIn(path.slice(0, n));
  }
}

/** Adds an allow entry unless an equivalent one is there. */
export function addAllow(source: string, file: string, entry: string): string {
  const doc = editableDocument(source, file);
  const path = ['capabilities', 'network', 'allow'];
  const seq = doc.getIn(path, true);
  if (isSeq(seq)) {
    if (seq.items.some((it) => sameAllowEntry(String((it as { value?: unknown }).value ?? it), entry))) return source;
    if (seq.flow && seq.items.length === 0) seq.flow = false;
    seq.add(doc.createNode(entry));
  } else doc.setIn(path, doc.createNode([entry]));
  return doc.toString();
}

/** Removes every allow entry the predicate picks; prunes the emptied parents. */
export function removeAllow(source: string, file: string, picks: (entry: string) => boolean): string {
  const doc = editableDocument(source, file);
  const path = ['capabilities', 'network', 'allow'];
  const seq = doc.getIn(path, true);
  if (!isSeq(seq)) return source;
  const before = seq.items.length;
  seq.items = seq.items.filter((it) => !picks(String((it as { value?: unknown }).value ?? it)));
  if (seq.items.length === before) return source;
  pruneEmpty(doc, path);
  return doc.toString();
}

/** Sets or takes back exports.peer_tasks.accept (taking back removes the key and empty parents). */
export function setPeerAccept(source: string, file: string, accept: boolean): string {
  const doc = editableDocument(source, file);
  const path = ['exports', 'peer_tasks', 'accept'];
  const current = doc.getIn(path);
  if (accept) {
    if (current === true) return source;
    doc.setIn(path, true);
  } else {
    if (current === undefined) return source;
    doc.deleteIn(path);
    pruneEmpty(doc, ['exports', 'peer_tasks']);
  }
  return doc.toString();
}

/** Pins network.internal_port. */
export function setInternalPort(source: string, file: string, port: number): string {
  const doc = editableDocument(source, file);
  doc.setIn(['network', 'internal_port'], port);
  return doc.toString();
}
