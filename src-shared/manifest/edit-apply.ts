import { isMap, isScalar, isSeq, parseDocument, Scalar, type Document, type Node, type ToStringOptions } from 'yaml';
import { sameAllowEntry } from './allow';
import { manifestEditOpSchema, type ManifestEditOp } from './edit-ops';
import { addMcpServer, removeMcpServer, setMcpTools } from './mcp-edit';
import { lineDiff } from './line-diff';
import { formatYamlError } from './yaml-errors';

// Edits the YAML text of a manifest through yaml's Document API, so the user's comments, key order,
// quoting and blank lines survive. Edits work on the raw source: ${VAR} references stay as written.

const ALLOW_PATH = ['capabilities', 'network', 'allow'];

type Segment = string | number;

/** Turns string segments into list indexes where the document has a list. */
function resolvePath(doc: Document, path: readonly string[]): Segment[] {
  const out: Segment[] = [];
  let node: unknown = doc.contents;
  for (const seg of path) {
    const s: Segment = isSeq(node) && /^\d+$/.test(seg) ? Number(seg) : seg;
    out.push(s);
    node = isMap(node) || isSeq(node) ? node.get(s, true) : undefined;
  }
  return out;
}

/** Whether top-level sections are separated by blank lines (as murmur's own manifests are), to match it. */
function usesBlankLines(doc: Document): boolean {
  return isMap(doc.contents) && doc.contents.items.slice(1).some((p) => (p.key as Node | null)?.spaceBefore === true);
}

/** Sets a value, keeping an existing scalar's node (its comment and quoting) when there is one. */
export function setManifestValue(doc: Document, path: readonly Segment[], value: unknown): void {
  const existing = doc.getIn(path, true);
  if (isScalar(existing) && (value === null || typeof value !== 'object')) {
    // Keep the node (and its comment and quoting) and change only its value.
    existing.value = value;
    if (existing.type !== Scalar.PLAIN && typeof value !== 'string') existing.type = Scalar.PLAIN;
    return;
  }
  const isNewTopLevel = isMap(doc.contents) && !doc.contents.has(path[0]);
  doc.setIn(path, doc.createNode(value));
  if (isNewTopLevel && usesBlankLines(doc) && isMap(doc.contents)) {
    const pair = doc.contents.items[doc.contents.items.length - 1];
    const key = isScalar(pair.key) ? pair.key : new Scalar(pair.key);
    key.spaceBefore = true;
    pair.key = key;
  }
}

function allowSeq(doc: Document) {
  const node = doc.getIn(ALLOW_PATH, true);
  return isSeq(node) ? node : undefined;
}

function apply(doc: Document, op: ManifestEditOp): void {
  switch (op.op) {
    case 'addAllow': {
      const seq = allowSeq(doc);
      if (!seq) return setManifestValue(doc, ALLOW_PATH, [op.entry]);
      const present = seq.items.some(
        (item) => isScalar(item) && typeof item.value === 'string' && sameAllowEntry(item.value, op.entry),
      );
      if (present) return;
      // "allow: []" (as templates write it) grows into a block list, one entry per line.
      if (seq.flow && seq.items.length === 0) seq.flow = false;
      seq.add(doc.createNode(op.entry));
      return;
    }
    case 'removeAllow': {
      const seq = allowSeq(doc);
      if (seq)
        seq.items = seq.items.filter(
          (item) => !(isScalar(item) && typeof item.value === 'string' && sameAllowEntry(item.value, op.entry)),
        );
      return;
    }
    case 'setPeerAccept':
      return setManifestValue(doc, ['exports', 'peer_tasks', 'accept'], op.value);
    case 'setInternalPort':
      return setManifestValue(doc, ['network', 'internal_port'], op.port);
    case 'set':
      return setManifestValue(doc, resolvePath(doc, op.path), op.value);
    case 'delete': {
      const path = resolvePath(doc, op.path);
      if (doc.hasIn(path)) doc.deleteIn(path);
      return;
    }
    case 'addMcpServer':
      return addMcpServer(doc, op.server);
    case 'removeMcpServer':
      return removeMcpServer(doc, op.name);
    case 'setMcpTools':
      return setMcpTools(doc, op.name, op.tools);
  }
}

/** A manifest parsed for editing: its document, the file's own style, and the text that style gives before any edit. */
export interface OpenedManifest {
  source: string;
  doc: Document;
  options: ToStringOptions;
  /** The document as it stringifies before any edit (to tell "nothing changed" from a reformat). */
  before: string;
}

/** Parses a manifest for editing. Throws on a YAML syntax error or a manifest that is not a map. */
export function openManifestForEdit(source: string): OpenedManifest {
  const doc = parseDocument(source, { keepSourceTokens: false });
  if (doc.errors.length)
    throw new Error(`cannot edit a manifest with a YAML syntax error: ${formatYamlError(doc.errors[0])}`);
  if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  if (!isMap(doc.contents)) throw new Error('cannot edit a manifest that is not a map of fields');
  // Keep the user's list style: "- item" level with its key, or indented under it.
  const indentSeq = !/^([ \t]*)[^\s#-][^\n]*:[ \t]*(#[^\n]*)?\n\1-[ \t]/m.test(source);
  // And its indentation width (the first nested line under a top-level key).
  const indent = /^[^\s#][^\n]*:[ \t]*(?:#[^\n]*)?\n( +)[^\s-]/m.exec(source)?.[1].length ?? 2;
  // And its flow style: `{ to: a }` (padded, as the README writes scripts) or `{to: a}`.
  const flowCollectionPadding = /[{[] [^\s\]}][^\n]* [\]}]/.test(source);
  const options: ToStringOptions = { indent, indentSeq, lineWidth: 0, flowCollectionPadding };
  return { source, doc, options, before: doc.toString(options) };
}

/**
 * Applies `edit` to an opened manifest's document, in place, and returns the new text (the source,
 * byte for byte, when nothing changed: no reformatting of untouched files). After a change the
 * document is the new text's; a caller that keeps it (the Studio's form, to spare a parse per
 * keystroke) takes the returned text as its source. Throws when the edit does not fit the document
 * (the document may then be half edited: open the text again).
 */
export function editOpenedManifest(m: OpenedManifest, edit: (doc: Document) => void): string {
  edit(m.doc);
  const after = m.doc.toString(m.options);
  return after === m.before ? m.source : keepUntouchedLines(m.source, m.before, after);
}

/**
 * The edited text with every line the edit did not touch exactly as the user wrote it: yaml
 * re-spaces a comment or re-quotes a value when it prints a document, and an edit elsewhere must
 * not rewrite those lines (nor must an edit and its inverse leave the file any different). Only
 * when the source and its printed form have the same lines (no reflowed block) can they be paired.
 */
function keepUntouchedLines(source: string, before: string, after: string): string {
  const written = source.split('\n');
  if (written.length !== before.split('\n').length) return after;
  const out: string[] = [];
  let i = 0;
  for (const line of lineDiff(before, after)) {
    if (line.kind === 'same') out.push(written[i++]);
    else if (line.kind === 'removed') i++;
    else out.push(line.text);
  }
  // lineDiff drops the final newline: the rest of the source (its last line, or the empty tail) follows.
  out.push(...written.slice(i));
  const text = out.join('\n');
  return after.endsWith('\n') && !text.endsWith('\n') ? `${text}\n` : text;
}

/**
 * Applies `edit` to the manifest's YAML document and returns the new text, in the file's own list
 * style and indentation (the same text, byte for byte, when nothing changed). Throws on a YAML
 * syntax error, a manifest that is not a map, or an edit that does not fit the document.
 */
export function editManifestDocument(source: string, edit: (doc: Document) => void): string {
  return editOpenedManifest(openManifestForEdit(source), edit);
}

/** Applies edit operations to a manifest's YAML text and returns the new text (the same text when nothing changed). Throws on a YAML syntax error or an invalid operation. */
export function editManifestSource(source: string, ops: readonly ManifestEditOp[]): string {
  const checked = ops.map((op) => manifestEditOpSchema.parse(op));
  return editManifestDocument(source, (doc) => {
    for (const op of checked) apply(doc, op);
  });
}
